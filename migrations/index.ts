import { InitialSchema1763870400000 } from './1763870400000-InitialSchema';
import { TokenLifecycle1764000000000 } from './1764000000000-TokenLifecycle';
import { SigningKeyRotation1764100000000 } from './1764100000000-SigningKeyRotation';
import { StandardIdentityResources1764500000000 } from './1764500000000-StandardIdentityResources';
import { BrowserSignIn1764600000000 } from './1764600000000-BrowserSignIn';
import { TrustedIssuers1764700000000 } from './1764700000000-TrustedIssuers';
import { SecretlessClients1764700100000 } from './1764700100000-SecretlessClients';
import { DelegationPolicies1764800000000 } from './1764800000000-DelegationPolicies';
import { SubjectIssuers1764800100000 } from './1764800100000-SubjectIssuers';
import { ClientSettingsHistory1764900000000 } from './1764900000000-ClientSettingsHistory';
import { UserClaimsIndex1765000000000 } from './1765000000000-UserClaimsIndex';
import { TrustedIssuerSettingsHistory1765000100000 } from './1765000100000-TrustedIssuerSettingsHistory';
import { ApiResourceServers1765100000000 } from './1765100000000-ApiResourceServers';
import { AuthorizationCodesBySession1765400000000 } from './1765400000000-AuthorizationCodesBySession';
import { AuthorizationCodeRedirectUriSent1765500000000 } from './1765500000000-AuthorizationCodeRedirectUriSent';
import { ClientNamesAndResourceHistory1765600000000 } from './1765600000000-ClientNamesAndResourceHistory';
import { PushedAuthorizationRequests1765900000000 } from './1765900000000-PushedAuthorizationRequests';
import { ResourceIndicators1766000000000 } from './1766000000000-ResourceIndicators';
import { DeviceAuthorizations1766100000000 } from './1766100000000-DeviceAuthorizations';
import { DpopBinding1766200000000 } from './1766200000000-DpopBinding';
import { SelfRegisteredClients1766300000000 } from './1766300000000-SelfRegisteredClients';
import { AuthorizationCodeDpopBinding1766400000000 } from './1766400000000-AuthorizationCodeDpopBinding';
import { PendingRequestsByAddress1766450000000 } from './1766450000000-PendingRequestsByAddress';
import { Passkeys1766460000000 } from './1766460000000-Passkeys';
import { Signals1766600000000 } from './1766600000000-Signals';
import { CrossDomainGrants1766710000000 } from './1766710000000-CrossDomainGrants';

/** Every migration, oldest first. `npm run client:migration` appends here. */
export const migrations = [InitialSchema1763870400000, TokenLifecycle1764000000000, SigningKeyRotation1764100000000, StandardIdentityResources1764500000000, BrowserSignIn1764600000000, TrustedIssuers1764700000000, SecretlessClients1764700100000, DelegationPolicies1764800000000, SubjectIssuers1764800100000, ClientSettingsHistory1764900000000, UserClaimsIndex1765000000000, TrustedIssuerSettingsHistory1765000100000, ApiResourceServers1765100000000, AuthorizationCodesBySession1765400000000, AuthorizationCodeRedirectUriSent1765500000000, ClientNamesAndResourceHistory1765600000000, PushedAuthorizationRequests1765900000000, ResourceIndicators1766000000000, DeviceAuthorizations1766100000000, DpopBinding1766200000000, SelfRegisteredClients1766300000000, AuthorizationCodeDpopBinding1766400000000, PendingRequestsByAddress1766450000000, Passkeys1766460000000, Signals1766600000000, CrossDomainGrants1766710000000];
