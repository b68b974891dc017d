/**
 * Positions and revisions are bigint in code and decimal strings on the wire (JSON has no
 * 64-bit integers, and a JS number silently loses precision above 2^53).
 */
export const toWire = (value: bigint): string => value.toString(10);

/** Parses a wire position/revision; throws on anything but an optional minus and digits. */
export function fromWire(value: string): bigint {
  if (!/^-?\d{1,20}$/.test(value)) throw new RangeError(`not a position or revision: ${JSON.stringify(value)}`);
  return BigInt(value);
}
