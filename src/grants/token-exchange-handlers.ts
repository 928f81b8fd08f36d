import { Injectable } from '@nestjs/common';
import type { TokenExchangeHandler } from './token-exchange-handler';

/** Every token-exchange handler the grant modules export, by `requested_token_type` and `subject_token_type`. */
@Injectable()
export class TokenExchangeHandlers {
  private readonly byRequestedType = new Map<string, Map<string, TokenExchangeHandler>>();

  add(handler: TokenExchangeHandler): void {
    const bySubjectType = this.byRequestedType.get(handler.requestedTokenType) ?? new Map<string, TokenExchangeHandler>();
    const subjectTypes = typeof handler.subjectTokenType === 'string' ? [handler.subjectTokenType] : handler.subjectTokenType;
    for (const subjectType of subjectTypes) {
      const existing = bySubjectType.get(subjectType);
      if (existing && existing !== handler) {
        throw new Error(
          `Two token-exchange handlers exchange ${subjectType} for ${handler.requestedTokenType}: ${existing.constructor.name} and ${handler.constructor.name}. Register one.`,
        );
      }
      bySubjectType.set(subjectType, handler);
    }
    this.byRequestedType.set(handler.requestedTokenType, bySubjectType);
  }

  /** The handlers that issue `requestedTokenType`, by the subject token types they accept; undefined when none does. */
  forRequestedType(requestedTokenType: string): ReadonlyMap<string, TokenExchangeHandler> | undefined {
    return this.byRequestedType.get(requestedTokenType);
  }

  requestedTokenTypes(): string[] {
    return [...this.byRequestedType.keys()];
  }
}
