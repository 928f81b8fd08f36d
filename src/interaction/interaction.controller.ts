import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasNulCharacter, isFormBody, type FormBody } from '../oauth/form';
import { EndSessionService } from './end-session.service';
import { InteractionService } from './interaction.service';
import { PageRenderer } from './page.renderer';
import { StylesheetSource } from './stylesheet.source';

/**
 * The browser-facing endpoints (docs/browser-sign-in.md): authorization (OpenID Connect Core
 * §3.1.2), the login and consent forms, RP-Initiated Logout, and the pages' stylesheet.
 */
@Controller()
export class InteractionController {
  constructor(
    private readonly interaction: InteractionService,
    private readonly endSession: EndSessionService,
    private readonly pages: PageRenderer,
    private readonly stylesheet: StylesheetSource,
  ) {}

  @Get('connect/authorize')
  async authorizeGet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.authorize(parameters(request.query), request.headers.cookie));
  }

  @Post('connect/authorize')
  async authorizePost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.authorize(form(request), request.headers.cookie));
  }

  @Post('interaction/login')
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.signIn(form(request), request.headers.cookie, request.ip));
  }

  @Post('interaction/consent')
  async consent(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.consent(form(request), request.headers.cookie));
  }

  @Get('connect/endsession')
  async endSessionGet(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.endSession.endSession(parameters(request.query), request.headers.cookie));
  }

  @Post('connect/endsession')
  async endSessionPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.endSession.endSession(form(request), request.headers.cookie));
  }

  @Get('interaction/tollgate.css')
  async css(@Res() reply: FastifyReply): Promise<void> {
    reply.header('Content-Type', 'text/css; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff');
    reply.send(await this.stylesheet.read());
  }
}

/** Query or form parameters; anything else (another content type, a NUL character) counts as none. */
function parameters(value: unknown): FormBody {
  return isFormBody(value) && !hasNulCharacter(value) ? value : {};
}

function form(request: FastifyRequest): FormBody {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return mediaType === 'application/x-www-form-urlencoded' ? parameters(request.body) : {};
}
