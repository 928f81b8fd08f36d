import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InspectedParameters } from '../../protocol/inspected-parameters';
import { AccountPasskeyForm, AccountPasswordForm, PasskeyChangeForm } from './account-forms';
import { AccountService } from './account.service';
import { PageForm } from './page-parameters';
import { PageRenderer } from './page.renderer';

/** The account page (docs/passkeys.md#the-account-page--get-account): the user's passkeys. */
@Controller('account')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly pages: PageRenderer,
  ) {}

  @Get()
  async show(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.pages.render(request, reply, await this.account.show(request.headers.cookie));
  }

  @Post('sign-in')
  async signIn(
    @PageForm(AccountPasswordForm) form: InspectedParameters<AccountPasswordForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.account.signInWithPassword(form, request.headers.cookie, request.ip));
  }

  @Post('passkey-sign-in')
  async passkeySignIn(
    @PageForm(AccountPasskeyForm) form: InspectedParameters<AccountPasskeyForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.account.signInWithPasskey(form, request.headers.cookie, request.ip));
  }

  @Post('passkeys')
  async add(
    @PageForm(AccountPasskeyForm) form: InspectedParameters<AccountPasskeyForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.account.addPasskey(form, request.headers.cookie));
  }

  @Post('passkeys/rename')
  async rename(
    @PageForm(PasskeyChangeForm) form: InspectedParameters<PasskeyChangeForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.account.renamePasskey(form, request.headers.cookie));
  }

  @Post('passkeys/remove')
  async remove(
    @PageForm(PasskeyChangeForm) form: InspectedParameters<PasskeyChangeForm>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.pages.render(request, reply, await this.account.removePasskey(form, request.headers.cookie));
  }
}
