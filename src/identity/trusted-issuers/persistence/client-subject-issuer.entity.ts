import { Entity, PrimaryColumn } from 'typeorm';

/** RFC 8693 subject tokens: a client that accepts those of a trusted issuer with the subject role. */
@Entity('client_subject_issuers')
export class ClientSubjectIssuerEntity {
  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @PrimaryColumn({ type: 'text' })
  issuer!: string;
}
