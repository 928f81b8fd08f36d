import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Passkey } from '../passkey';
import { PasskeyRepository } from '../passkey.repository';
import { PasskeyEntity } from './passkey.entity';

@Injectable()
export class TypeOrmPasskeyRepository extends PasskeyRepository {
  constructor(@InjectRepository(PasskeyEntity) private readonly passkeys: Repository<PasskeyEntity>) {
    super();
  }

  async listOf(subject: string): Promise<Passkey[]> {
    return (await this.passkeys.find({ where: { subjectId: subject }, order: { createdAt: 'ASC' } })).map(toPasskey);
  }

  countOf(subject: string): Promise<number> {
    return this.passkeys.countBy({ subjectId: subject });
  }

  async find(credentialId: string): Promise<Passkey | undefined> {
    const entity = await this.passkeys.findOneBy({ credentialId });
    return entity ? toPasskey(entity) : undefined;
  }

  async add(passkey: Passkey): Promise<boolean> {
    const result = await this.passkeys
      .createQueryBuilder()
      .insert()
      .values({
        credentialId: passkey.credentialId,
        subjectId: passkey.subject,
        userHandle: passkey.userHandle,
        publicKey: Buffer.from(passkey.publicKey),
        signCount: String(passkey.signCount),
        transports: [...passkey.transports],
        authenticatorAttachment: passkey.attachment ?? null,
        backedUp: passkey.backedUp,
        name: passkey.name,
        createdAt: passkey.createdAt,
      })
      .orIgnore()
      .returning(['credentialId'])
      .execute();
    return result.raw.length === 1;
  }

  async recordUse(credentialId: string, signCount: number, backedUp: boolean, at: Date): Promise<void> {
    await this.passkeys.update({ credentialId }, { signCount: String(signCount), backedUp, lastUsedAt: at });
  }

  async rename(subject: string, credentialId: string, name: string): Promise<boolean> {
    const { affected } = await this.passkeys.update({ subjectId: subject, credentialId }, { name });
    return affected === 1;
  }

  async remove(subject: string, credentialId: string): Promise<Passkey | undefined> {
    const passkey = await this.passkeys.findOneBy({ subjectId: subject, credentialId });
    if (!passkey) return undefined;
    const { affected } = await this.passkeys.delete({ subjectId: subject, credentialId });
    return affected === 1 ? toPasskey(passkey) : undefined;
  }

  async removeAllOf(subject: string): Promise<Passkey[]> {
    const passkeys = await this.listOf(subject);
    await this.passkeys.delete({ subjectId: subject });
    return passkeys;
  }
}

function toPasskey(entity: PasskeyEntity): Passkey {
  return {
    credentialId: entity.credentialId,
    subject: entity.subjectId,
    userHandle: entity.userHandle,
    publicKey: new Uint8Array(entity.publicKey),
    signCount: Number(entity.signCount),
    transports: entity.transports,
    ...(entity.authenticatorAttachment === null ? {} : { attachment: entity.authenticatorAttachment }),
    backedUp: entity.backedUp,
    name: entity.name,
    createdAt: entity.createdAt,
    ...(entity.lastUsedAt === null ? {} : { lastUsedAt: entity.lastUsedAt }),
  };
}
