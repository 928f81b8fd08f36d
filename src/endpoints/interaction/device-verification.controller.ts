import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { DeviceConsentForm, DeviceEntryForm, DeviceLoginForm, DevicePasskeyForm } from './device-forms';
import { DeviceVerificationService } from './device-verification.service';
import { PageForm, PageQuery } from './page-parameters';
import { PageExceptionFilter } from './page-exception.filter';
import { PageRenderer } from './page.renderer';

/** The device authorization grant's verification page (RFC 8628 §3.3, docs/device-authorization.md). */
@UseFilters(PageExceptionFilter)
@Controller('connect/device')
export class DeviceVerificationController {
  constructor(
    private readonly verification: DeviceVerificationService,
    private readonly pages: PageRenderer,
  ) {}

  @Get()
  async show(
    @PageQuery(DeviceEntryForm) form: InspectedParameters<DeviceEntryForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.show(form, request.headers.cookie));
  }

  @Post()
  async enter(
    @PageForm(DeviceEntryForm) form: InspectedParameters<DeviceEntryForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.enter(form, request.headers.cookie));
  }

  @Post('login')
  async login(
    @PageForm(DeviceLoginForm) form: InspectedParameters<DeviceLoginForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.signIn(form, request.headers.cookie, request.ip));
  }

  @Post('passkey')
  async passkeySignIn(
    @PageForm(DevicePasskeyForm) form: InspectedParameters<DevicePasskeyForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.signInWithPasskey(form, request.headers.cookie, request.ip));
  }

  @Post('step-up')
  async stepUp(
    @PageForm(DevicePasskeyForm) form: InspectedParameters<DevicePasskeyForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.stepUp(form, request.headers.cookie, request.ip));
  }

  @Post('consent')
  async consent(
    @PageForm(DeviceConsentForm) form: InspectedParameters<DeviceConsentForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.verification.consent(form, request.headers.cookie));
  }
}
