import type { ServiceKind } from './service-list';

/** The three ways a cluster's service can be unavailable (spec §4). */
export type ServiceErrorKind = 'NoService' | 'NoEnableService' | 'AccessError';

/** Translation key (under `clusters.`) of each kind; each takes `{{centerName}}` and `{{service}}` (`clusters.services.<kind>`). */
export const SERVICE_ERROR_MESSAGE_KEY: Record<ServiceErrorKind, string> = {
  NoService: 'errors.noService',
  NoEnableService: 'errors.noEnableService',
  AccessError: 'errors.accessError',
};

/**
 * Why no URL could be given for a cluster's service. `kind` tells the three cases apart; `messageKey` is what the
 * UI translates (with `centerName`), since the message itself is language-dependent.
 */
export class ServiceDiscoveryError extends Error {
  readonly kind: ServiceErrorKind;
  readonly clusterId: string;
  readonly centerName: string;
  readonly service: ServiceKind;
  /** The URLs that were tried (AccessError only), in the order they were tried. */
  readonly tried: readonly string[];

  constructor(init: {
    kind: ServiceErrorKind;
    clusterId: string;
    centerName: string;
    service: ServiceKind;
    tried?: readonly string[];
  }) {
    super(`${init.kind}: ${init.service} of cluster ${init.clusterId}`);
    this.name = 'ServiceDiscoveryError';
    this.kind = init.kind;
    this.clusterId = init.clusterId;
    this.centerName = init.centerName;
    this.service = init.service;
    this.tried = init.tried ?? [];
  }

  get messageKey(): string {
    return SERVICE_ERROR_MESSAGE_KEY[this.kind];
  }
}

export const isServiceDiscoveryError = (e: unknown): e is ServiceDiscoveryError =>
  e instanceof ServiceDiscoveryError;
