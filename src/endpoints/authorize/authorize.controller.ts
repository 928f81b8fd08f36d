import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { PageForm, PageQuery } from '../interaction/page-parameters';
import { PageExceptionFilter } from '../interaction/page-exception.filter';
import { PageRenderer } from '../interaction/page.renderer';
import { ConsentForm, LoginForm, PasskeyForm, StepUpForm } from './authorization-forms';
import { AuthorizationInteractionService } from './authorization-interaction.service';
import { AuthorizationParameters, type AuthorizationInput } from './authorization-parameters';

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2, docs/browser-sign-in.md) and the forms of
 * its pages that continue the request: login (password or passkey), step-up and consent.
 */
@UseFilters(PageExceptionFilter)
@Controller()
export class AuthorizeController {
  constructor(
    private readonly interaction: AuthorizationInteractionService,
    private readonly pages: PageRenderer,
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
  async stepUp(@PageForm(StepUpForm) form: InspectedParameters<StepUpForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.stepUp(form, request.headers.cookie, request.ip));
  }

  @Post('interaction/consent')
  async consent(@PageForm(ConsentForm) form: InspectedParameters<ConsentForm>, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.interaction.consent(form, request.headers.cookie));
  }
}
