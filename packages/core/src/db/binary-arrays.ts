/** Arrays read in PostgreSQL's binary format: large id lists cost a copy, not a text parse per element. */

/** An int4[] in PostgreSQL's binary array format (`array_send`): header, then a length and a value per element. */
export function int4ArrayFromBinary(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(0) === 0) return new Int32Array(0);
  if (view.getInt32(0) !== 1 || view.getInt32(4) !== 0)
    throw new Error('expected a one-dimensional int4[] without nulls');
  const ids = new Int32Array(view.getInt32(12));
  for (let i = 0, at = 24; i < ids.length; i++, at += 8) ids[i] = view.getInt32(at);
  return ids;
}
