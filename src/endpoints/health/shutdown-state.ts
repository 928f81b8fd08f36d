import { Injectable } from '@nestjs/common';

/** Set when the instance is shutting down: readiness then reports down so balancers drain it. */
@Injectable()
export class ShutdownState {
  draining = false;
}
