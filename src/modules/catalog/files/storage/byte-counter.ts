import { Transform, TransformCallback } from 'node:stream';

/** Passes bytes through unchanged and counts them, so drivers learn the size of a streamed upload. */
export class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}
