/**
 * An account's queued mails are counted up to this many: a delivery's priority is minus its account's backlog,
 * so an account that queues a flood waits behind the others; beyond the cap its mails keep the lowest priority.
 */
export const BACKLOG_CAP = 1_000;
