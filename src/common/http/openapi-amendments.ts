import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

export type OpenApiAmendment = (document: OpenAPIObject) => void;

/**
 * Changes to the generated OpenAPI document that decorators cannot express because they depend on
 * what this app was built with (the webhook event kinds of its plugins). Providers add them in their
 * constructor; `createApp` applies them once, right after generating the document.
 */
@Injectable()
export class OpenApiAmendments {
  private readonly amendments: OpenApiAmendment[] = [];

  add(amendment: OpenApiAmendment): void {
    this.amendments.push(amendment);
  }

  apply(document: OpenAPIObject): OpenAPIObject {
    for (const amend of this.amendments) amend(document);
    return document;
  }
}
