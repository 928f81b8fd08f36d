import { Inject, Injectable } from '@nestjs/common';
import { GrantParameterSchema } from '../protocol/grant-parameters';
import type { GrantValidator } from './grant-validator';

/** The multi-injection token: every registered validator, as an array (internal: grants are registered by module). */
export const GRANT_VALIDATORS = Symbol('GRANT_VALIDATORS');

/** Every registered grant validator, by `grant_type`. */
@Injectable()
export class GrantValidatorRegistry {
  private readonly byGrantType = new Map<string, GrantValidator>();

  constructor(@Inject(GRANT_VALIDATORS) validators: readonly GrantValidator[]) {
    for (const validator of validators) {
      const existing = this.byGrantType.get(validator.grantType);
      if (existing) {
        throw new Error(
          `Two grant validators handle grant_type "${validator.grantType}": ${existing.constructor.name} and ${validator.constructor.name}. Register one.`,
        );
      }
      // Read the DTO's metadata now rather than on the first request.
      GrantParameterSchema.of(validator.parameters);
      this.byGrantType.set(validator.grantType, validator);
    }
  }

  find(grantType: string): GrantValidator | undefined {
    return this.byGrantType.get(grantType);
  }

  grantTypes(): string[] {
    return [...this.byGrantType.keys()];
  }
}
