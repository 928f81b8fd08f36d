// A container extension (docs/extending.md#3-a-container-extension): plain CommonJS, loaded by Tollgate
// from TOLLGATE_EXTENSIONS. `@nestjs/common`, `class-validator` and `tollgate` are the service's own
// (NODE_PATH in the image). Decorators are applied as functions: no compiler is needed.
const { createHash } = require('node:crypto');
const { Inject, Injectable, Module } = require('@nestjs/common');
const { IsString, Length } = require('class-validator');
const { OAuthError } = require('tollgate');

const PARTNER_KEY_GRANT = 'urn:example:params:oauth:grant-type:partner-api-key';

/** The request parameters besides grant_type and scope. */
class PartnerKeyParameters {}
IsString({ message: 'api_key is required' })(PartnerKeyParameters.prototype, 'api_key');
Length(20, 200, { message: 'api_key is required' })(PartnerKeyParameters.prototype, 'api_key');

/** The partners' API keys, by SHA-256 hex digest, each acting for one user: PARTNER_KEYS = {"<digest>": "<sub>"}. */
class PartnerKeys {
  constructor() {
    this.subjectByDigest = new Map(Object.entries(JSON.parse(process.env.PARTNER_KEYS ?? '{}')));
  }

  subjectOf(apiKey) {
    return this.subjectByDigest.get(createHash('sha256').update(apiKey).digest('hex'));
  }
}
Injectable()(PartnerKeys);

/** A partner exchanges the API key it holds for a user's access token. */
class PartnerKeyGrantValidator {
  constructor(keys) {
    this.keys = keys;
    this.grantType = PARTNER_KEY_GRANT;
    this.parameters = PartnerKeyParameters;
  }

  async validate({ api_key: apiKey }, { scopes }) {
    const subject = this.keys.subjectOf(apiKey);
    if (subject === undefined) throw OAuthError.invalidGrant('unknown API key');
    return { subject, scopes: scopes.names, claims: { partner_key: true } };
  }
}
Injectable()(PartnerKeyGrantValidator);
Inject(PartnerKeys)(PartnerKeyGrantValidator, undefined, 0);

class PartnerKeyModule {}
Module({ providers: [PartnerKeys, PartnerKeyGrantValidator], exports: [PartnerKeyGrantValidator] })(PartnerKeyModule);

module.exports = { PartnerKeyModule };
