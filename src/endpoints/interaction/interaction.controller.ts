import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { EndSessionParameters, LogoutForm } from './end-session-parameters';
import { EndSessionService } from './end-session.service';
import { PasskeyScriptSource } from './passkey-script.source';
import { PageForm, PageQuery } from './page-parameters';
import { PageExceptionFilter } from './page-exception.filter';
import { PageRenderer } from './page.renderer';
import { StylesheetSource } from './stylesheet.source';

/**
 * RP-Initiated Logout and its confirmation (docs/browser-sign-in.md), and the pages' stylesheet and
 * script. The authorization endpoint and its forms are in src/endpoints/authorize/.
 */
@UseFilters(PageExceptionFilter)
@Controller()
export class InteractionController {
  constructor(
    private readonly endSession: EndSessionService,
    private readonly pages: PageRenderer,
    private readonly stylesheet: StylesheetSource,
    private readonly passkeyScript: PasskeyScriptSource,
  ) {}

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
