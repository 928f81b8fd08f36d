import { Controller, Delete, Get, HttpCode, Patch, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { NoStore } from '../../platform/http/no-store.decorator';
import { OAuthRoute } from '../../platform/http/oauth-route';
import { OAuthError } from '../../protocol/oauth-error';
import type { ValidatedAccessToken } from '../../tokens/access-token/access-token';
import { BearerTokenGuard, CurrentAccessToken } from '../userinfo/bearer-token.guard';
import type { StreamConfiguration } from './stream-configuration';
import { SsfStreamService, type StreamStatusResponse } from './ssf-stream.service';
import { jsonObject } from './stream-request';

const body = (request: FastifyRequest) => jsonObject(request.body, request.headers['content-type']);

/** `?stream_id=`, once. */
function streamIdOf(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.stream_id;
  if (value !== undefined && (typeof value !== 'string' || value.length > 200)) throw OAuthError.invalidRequest('stream_id must be sent once');
  return value;
}

/**
 * SSF 1.0 §8.1 stream management (docs/signals.md#receivers): the configuration, status and
 * verification endpoints, for a receiver's own `client_credentials` token with the `ssf` scope.
 */
@Controller('ssf')
@UseGuards(BearerTokenGuard)
export class SsfStreamsController {
  constructor(private readonly streams: SsfStreamService) {}

  @Post('stream')
  @HttpCode(201)
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  create(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamConfiguration> {
    return this.streams.create(token, body(request));
  }

  @Get('stream')
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  read(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamConfiguration | StreamConfiguration[]> {
    return this.streams.read(token, streamIdOf(request));
  }

  @Patch('stream')
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  update(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamConfiguration> {
    return this.streams.change(token, body(request), 'update');
  }

  @Put('stream')
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  replace(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamConfiguration> {
    return this.streams.change(token, body(request), 'replace');
  }

  @Delete('stream')
  @HttpCode(204)
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  delete(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<void> {
    return this.streams.delete(token, streamIdOf(request));
  }

  @Get('status')
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  status(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamStatusResponse> {
    return this.streams.status(token, streamIdOf(request));
  }

  @Post('status')
  @HttpCode(200)
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  setStatus(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<StreamStatusResponse> {
    return this.streams.setStatus(token, body(request));
  }

  @Post('verify')
  @HttpCode(204)
  @OAuthRoute({ challenge: 'Bearer' })
  @NoStore()
  verify(@CurrentAccessToken() token: ValidatedAccessToken, @Req() request: FastifyRequest): Promise<void> {
    return this.streams.verify(token, body(request));
  }
}
