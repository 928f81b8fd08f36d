import { Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bodyText } from '../../platform/http/json-body-text';
import { OAuthRoute } from '../../platform/http/oauth-route';
import { ClientRegistrationService, type ClientInformation, type RegistrationInput } from './client-registration.service';

const input = (request: FastifyRequest): RegistrationInput => ({
  text: bodyText(request),
  contentType: request.headers['content-type'],
  authorization: request.headers.authorization,
});

/**
 * RFC 7591 §3 registration endpoint and RFC 7592 §2 client configuration endpoint (docs/agents.md),
 * protected by initial and registration access tokens: their errors carry a Bearer challenge (RFC 6750 §3).
 */
@Controller('connect/register')
export class ClientRegistrationController {
  constructor(private readonly registrations: ClientRegistrationService) {}

  @Post()
  @OAuthRoute({ challenge: 'Bearer', bodyText: true })
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  register(@Req() request: FastifyRequest): Promise<ClientInformation> {
    return this.registrations.register(input(request), request.ip);
  }

  @Get(':clientId')
  @OAuthRoute({ challenge: 'Bearer' })
  @Header('Cache-Control', 'no-store')
  read(@Param('clientId') clientId: string, @Req() request: FastifyRequest): Promise<ClientInformation> {
    return this.registrations.read(clientId, request.headers.authorization);
  }

  @Put(':clientId')
  @OAuthRoute({ challenge: 'Bearer', bodyText: true })
  @Header('Cache-Control', 'no-store')
  update(@Param('clientId') clientId: string, @Req() request: FastifyRequest): Promise<ClientInformation> {
    return this.registrations.update(clientId, input(request));
  }

  @Delete(':clientId')
  @OAuthRoute({ challenge: 'Bearer' })
  @HttpCode(204)
  delete(@Param('clientId') clientId: string, @Req() request: FastifyRequest): Promise<void> {
    return this.registrations.delete(clientId, request.headers.authorization);
  }
}
