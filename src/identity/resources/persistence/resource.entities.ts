import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('identity_resources')
export class IdentityResourceEntity {
  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ name: 'claim_types', type: 'text', array: true, default: () => "'{}'" })
  claimTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;
}

@Entity('api_resources')
export class ApiResourceEntity {
  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scopes!: string[];

  @Column({ name: 'resource_uri', type: 'text', nullable: true })
  resourceUri!: string | null;

  @Column({ name: 'serving_client_id', type: 'text', nullable: true })
  servingClientId!: string | null;

  @Column({ name: 'open_to_self_registered', type: 'boolean', default: false })
  openToSelfRegistered!: boolean;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;
}
