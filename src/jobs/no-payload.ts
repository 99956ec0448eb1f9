import { Type } from '@sinclair/typebox';

/** The payload of jobs that carry nothing (scheduled ticks, wake-ups). */
export const NO_PAYLOAD = Type.Object({}, { additionalProperties: false });
