/** `digits mod 97` for a decimal string of any length (ISO 7064 MOD 97-10, step by step). */
export function mod97(digits: string): number {
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + digit.charCodeAt(0) - 48) % 97;
  return remainder;
}
