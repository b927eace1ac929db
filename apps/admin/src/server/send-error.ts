import type { Response } from 'express';
import type { AppError } from '@careers/core';

/** Answers with an error's documented status and public body (core's one error table). */
export function sendAppError(res: Response, error: AppError): void {
  res.status(error.status).set(error.headers()).json(error.toBody());
}
