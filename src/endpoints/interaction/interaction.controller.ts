import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthorizationParameters, type AuthorizationInput } from '../../tokens/authorization/authorization-parameters';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { EndSessionParameters } from './end-session-parameters';
import { EndSessionService } from './end-session.service';
import { ConsentForm, LoginForm, LogoutForm, PasskeyForm } from './interaction-forms';
import { PasskeyScriptSource } from './passkey-script.source';
import { InteractionService } from './interaction.service';
import { PageForm, PageQuery } from './page-parameters';
import { PageExceptionFilter } from './page-exception.filter';
import { PageRenderer } from './page.renderer';
import { StylesheetSource } from './stylesheet.source';

/**
 * The browser-facing endpoints (docs/browser-sign-in.md): authorization (OpenID Connect Core
 * §3.1.2), the login and consent forms, RP-Initiated Logout and its confirmation, and the pages' stylesheet.
 */
@UseFilters(PageExceptionFilter)
@Controller()
export class InteractionController {
  constructor(
    private readonly interaction: InteractionService,
    private readonly endSession: EndSessionService,
    private readonly pages: PageRenderer,
    private readonly stylesheet: StylesheetSource,
    private readonly passkeyScript: PasskeyScriptSource,
  ) {}

  @Get('connect/authorize')
  async authorizeGet(
    @PageQuery(AuthorizationParameters) parameters: AuthorizationInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.authorize(parameters, request.headers.cookie));
  }

  @Post('connect/authorize')
  async authorizePost(
    @PageForm(AuthorizationParameters) parameters: AuthorizationInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.authorize(parameters, request.headers.cookie));
  }

  @Post('interaction/login')
  async login(@PageForm(LoginForm) form: InspectedParameters<LoginForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.signIn(form, request.headers.cookie, request.ip));
  }

  @Post('interaction/passkey')
  async passkey(@PageForm(PasskeyForm) form: InspectedParameters<PasskeyForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.passkeySignIn(form, request.headers.cookie, request.ip));
  }

  @Post('interaction/step-up')
  async stepUp(@PageForm(PasskeyForm) form: InspectedParameters<PasskeyForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.stepUp(form, request.headers.cookie, request.ip));
  }

  @Post('interaction/consent')
  async consent(@PageForm(ConsentForm) form: InspectedParameters<ConsentForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.consent(form, request.headers.cookie));
  }

  @Get('connect/endsession')
  async endSessionGet(
    @PageQuery(EndSessionParameters) parameters: InspectedParameters<EndSessionParameters>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.endSession.endSession(parameters, request.headers.cookie));
  }

  @Post('connect/endsession')
  async endSessionPost(
    @PageForm(EndSessionParameters) parameters: InspectedParameters<EndSessionParameters>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.endSession.endSession(parameters, request.headers.cookie));
  }

  @Post('interaction/logout')
  async confirmLogout(@PageForm(LogoutForm) form: InspectedParameters<LogoutForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.endSession.confirm(form, request.headers.cookie));
  }

  @Get('interaction/tollgate.css')
  async css(@Res() reply: FastifyReply): Promise<void> {
    reply.header('Content-Type', 'text/css; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff');
    reply.send(await this.stylesheet.read());
  }

  /** The pages' one script (docs/passkeys.md#the-pages): WebAuthn, loaded with the page's CSP nonce. */
  @Get('interaction/passkey.js')
  async script(@Res() reply: FastifyReply): Promise<void> {
    reply.header('Content-Type', 'text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff');
    reply.send(await this.passkeyScript.read());
  }
}
