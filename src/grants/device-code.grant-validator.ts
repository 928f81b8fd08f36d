import { Injectable } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { DEVICE_CODE_GRANT_TYPE } from '../tokens/device-authorization/device-authorization';
import { DeviceAuthorizationService } from '../tokens/device-authorization/device-authorization.service';
import { MAX_PARAMETER_LENGTH } from '../protocol/form';
import { continueWith } from './grant-continuation';
import type { GrantSuccess } from './grant-result';
import type { GrantContext, GrantValidator } from './grant-validator';

/** RFC 8628 §3.4; decorators run bottom-up, presence first. */
export class DeviceCodeParameters {
  @MaxLength(MAX_PARAMETER_LENGTH)
  @IsString({ message: 'device_code is required' })
  @IsNotEmpty({ message: 'device_code is required' })
  device_code!: string;
}

/**
 * RFC 8628 §3.4–3.5: the device polls with its device code until the user has answered on the
 * verification page; an approval is redeemed once for the tokens of the user's sign-in, as a code is.
 */
@Injectable()
export class DeviceCodeGrantValidator implements GrantValidator<DeviceCodeParameters> {
  readonly grantType = DEVICE_CODE_GRANT_TYPE;
  readonly parameters = DeviceCodeParameters;
  // RFC 8628 §3.4: the user's approval protects it; the device is often a public client.
  readonly publicClients = true;
  readonly signsIn = true;
  readonly refreshTokens = true;

  constructor(private readonly devices: DeviceAuthorizationService) {}

  async validate({ device_code: deviceCode }: DeviceCodeParameters, { client, receivedAt }: GrantContext): Promise<GrantSuccess> {
    const { scopes, approval } = await this.devices.redeem(deviceCode, client.clientId, new Date(receivedAt));
    return { subject: approval.subject, scopes, continuation: continueWith({ kind: 'device_code_redemption', scopes, ...approval }) };
  }
}
