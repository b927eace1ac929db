/**
 * Checks JSON text as its bytes arrive, without building any value: syntax (RFC 8259, what JSON.parse
 * accepts), nesting depth and the number of values. It keeps a few integers and one byte per open container,
 * so a body of 13 million tiny objects costs nothing until the value limit stops it.
 *
 * Written by hand on purpose, unlike the key cache (lru-cache) or the CLI (commander): the streaming JSON libraries
 * (stream-json, @streamparser/json, clarinet) build tokens or values for every byte they read, which is the cost this
 * check exists to avoid before a request's scope and rate limit have been checked, and none of them bounds depth and
 * value count while scanning. A validator with no output is small (one state machine), and json-scanner.test.ts checks
 * it against JSON.parse on generated texts.
 */

export type TScanVerdict = 'malformed' | 'too-deep' | 'too-many-values';

const State = {
  /** A value must come (start of the text, after `:`, after `,` in an array). */
  Value: 0,
  /** After `[`: a value or `]`. */
  ValueOrClose: 1,
  /** After `{`: a key or `}`. */
  KeyOrClose: 2,
  /** After `,` in an object: a key. */
  Key: 3,
  /** After a key: `:`. */
  Colon: 4,
  /** After a value: `,`, the closing bracket of the container, or (at the top) the end. */
  AfterValue: 5,
  /** Inside a string (key or value). */
  String: 6,
  /** After `\` in a string. */
  Escape: 7,
  /** In `\uXXXX`, `hex` digits still to come. */
  Unicode: 8,
  /** A literal (`true`, `false`, `null`) being matched. */
  Literal: 9,
  NumberMinus: 10,
  NumberZero: 11,
  NumberInt: 12,
  NumberDot: 13,
  NumberFraction: 14,
  NumberExponent: 15,
  NumberExponentSign: 16,
  NumberExponentDigits: 17,
  /** A bound was crossed or the syntax broke: nothing more is read. */
  Done: 18,
} as const;
type TState = (typeof State)[keyof typeof State];

const OBJECT = 1;
const ARRAY = 2;

const Byte = {
  Tab: 0x09,
  Newline: 0x0a,
  Return: 0x0d,
  Space: 0x20,
  Quote: 0x22,
  Plus: 0x2b,
  Comma: 0x2c,
  Minus: 0x2d,
  Dot: 0x2e,
  Slash: 0x2f,
  Zero: 0x30,
  One: 0x31,
  Nine: 0x39,
  Colon: 0x3a,
  UpperE: 0x45,
  OpenBracket: 0x5b,
  Backslash: 0x5c,
  CloseBracket: 0x5d,
  LowerE: 0x65,
  OpenBrace: 0x7b,
  CloseBrace: 0x7d,
} as const;

const BOM = [0xef, 0xbb, 0xbf];

const LITERALS: Record<number, Uint8Array> = {
  0x74: Buffer.from('true'),
  0x66: Buffer.from('false'),
  0x6e: Buffer.from('null'),
};

/** `"\/bfnrt` and `u` may follow a backslash. */
const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

const isWhitespace = (byte: number) =>
  byte === Byte.Space || byte === Byte.Newline || byte === Byte.Return || byte === Byte.Tab;
const isDigit = (byte: number) => byte >= Byte.Zero && byte <= Byte.Nine;
const isHex = (byte: number) => isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

export class JsonScanner {
  private state: TState = State.Value;
  private readonly stack: Uint8Array;
  private depth = 0;
  private values = 0;
  private stringIsKey = false;
  private literal: Uint8Array = LITERALS[0x74] as Uint8Array;
  private literalIndex = 0;
  private hexLeft = 0;
  /** Bytes of a leading byte order mark matched so far; -1 once the text itself began. */
  private bom = 0;
  private verdict: TScanVerdict | undefined;
  /** No byte of the text (after a byte order mark) has come yet: an empty body. */
  private onlyNothingSeen = true;
  private readonly maxDepth: number;
  private readonly maxValues: number;

  constructor(limits: { maxDepth: number; maxValues: number }) {
    this.maxDepth = limits.maxDepth;
    this.maxValues = limits.maxValues;
    this.stack = new Uint8Array(limits.maxDepth + 1);
  }

  /** Feeds the next bytes; answers the verdict as soon as the text is known to break a rule. */
  write(chunk: Uint8Array): TScanVerdict | undefined {
    if (this.state === State.Done) return this.verdict;
    let index = 0;
    // A UTF-8 byte order mark before the text (EF BB BF), possibly split across chunks.
    while (this.bom >= 0 && this.bom < 3 && index < chunk.length) {
      if (chunk[index] === BOM[this.bom]) {
        this.bom++;
        index++;
      } else if (this.bom === 0) {
        this.bom = -1;
      } else {
        return this.fail('malformed');
      }
    }
    if (this.bom === 3) this.bom = -1;
    else if (this.bom > 0) return undefined;
    for (; index < chunk.length; index++) {
      const verdict = this.step(chunk[index] as number);
      if (verdict !== undefined) return verdict;
      // Inside a string, skip ahead over plain characters (most of a large body is base64 text).
      if (this.state === State.String) {
        let next = index + 1;
        while (next < chunk.length) {
          const byte = chunk[next] as number;
          if (byte === Byte.Quote || byte === Byte.Backslash || byte < 0x20) break;
          next++;
        }
        index = next - 1;
      }
    }
    return undefined;
  }

  /** The end of the text: a complete document, or 'malformed'. An empty text is accepted (an absent body). */
  end(): TScanVerdict | undefined {
    if (this.state === State.Done) return this.verdict;
    switch (this.state) {
      case State.Value:
        // Nothing at all (or only a byte order mark) is an absent body; whitespace alone is not JSON.
        return this.values === 0 && this.onlyNothingSeen ? undefined : this.fail('malformed');
      case State.NumberZero:
      case State.NumberInt:
      case State.NumberFraction:
      case State.NumberExponentDigits:
        return this.depth === 0 ? undefined : this.fail('malformed');
      case State.AfterValue:
        return this.depth === 0 ? undefined : this.fail('malformed');
      default:
        return this.fail('malformed');
    }
  }

  private fail(verdict: TScanVerdict): TScanVerdict {
    this.state = State.Done;
    this.verdict = verdict;
    return verdict;
  }

  /** A value starts: count it, and open a container if it is one. */
  private beginValue(byte: number): TScanVerdict | undefined {
    if (++this.values > this.maxValues) return this.fail('too-many-values');
    switch (byte) {
      case Byte.OpenBrace:
      case Byte.OpenBracket:
        if (this.depth >= this.maxDepth) return this.fail('too-deep');
        this.stack[++this.depth] = byte === Byte.OpenBrace ? OBJECT : ARRAY;
        this.state = byte === Byte.OpenBrace ? State.KeyOrClose : State.ValueOrClose;
        return undefined;
      case Byte.Quote:
        this.stringIsKey = false;
        this.state = State.String;
        return undefined;
      case Byte.Minus:
        this.state = State.NumberMinus;
        return undefined;
      case Byte.Zero:
        this.state = State.NumberZero;
        return undefined;
      default: {
        if (byte >= Byte.One && byte <= Byte.Nine) {
          this.state = State.NumberInt;
          return undefined;
        }
        const literal = LITERALS[byte];
        if (!literal) return this.fail('malformed');
        this.literal = literal;
        this.literalIndex = 1;
        this.state = State.Literal;
        return undefined;
      }
    }
  }

  /** A value ended: what may follow depends on the container it is in. */
  private endValue(): void {
    this.state = State.AfterValue;
  }

  private close(byte: number): TScanVerdict | undefined {
    const expected = byte === Byte.CloseBrace ? OBJECT : ARRAY;
    if (this.depth === 0 || this.stack[this.depth] !== expected) return this.fail('malformed');
    this.depth--;
    this.endValue();
    return undefined;
  }

  private step(byte: number): TScanVerdict | undefined {
    this.onlyNothingSeen = false;
    switch (this.state) {
      case State.Value:
        if (isWhitespace(byte)) return undefined;
        return this.beginValue(byte);
      case State.ValueOrClose:
        if (isWhitespace(byte)) return undefined;
        if (byte === Byte.CloseBracket) return this.close(byte);
        return this.beginValue(byte);
      case State.KeyOrClose:
        if (isWhitespace(byte)) return undefined;
        if (byte === Byte.CloseBrace) return this.close(byte);
        return this.beginKey(byte);
      case State.Key:
        if (isWhitespace(byte)) return undefined;
        return this.beginKey(byte);
      case State.Colon:
        if (isWhitespace(byte)) return undefined;
        if (byte !== Byte.Colon) return this.fail('malformed');
        this.state = State.Value;
        return undefined;
      case State.AfterValue:
        return this.afterValue(byte);
      case State.String:
        if (byte === Byte.Quote) {
          if (this.stringIsKey) this.state = State.Colon;
          else this.endValue();
          return undefined;
        }
        if (byte === Byte.Backslash) {
          this.state = State.Escape;
          return undefined;
        }
        // Raw control characters are not allowed in JSON strings.
        return byte < 0x20 ? this.fail('malformed') : undefined;
      case State.Escape:
        if (byte === 0x75) {
          this.hexLeft = 4;
          this.state = State.Unicode;
          return undefined;
        }
        if (!ESCAPABLE.has(byte)) return this.fail('malformed');
        this.state = State.String;
        return undefined;
      case State.Unicode:
        if (!isHex(byte)) return this.fail('malformed');
        if (--this.hexLeft === 0) this.state = State.String;
        return undefined;
      case State.Literal:
        if (byte !== this.literal[this.literalIndex]) return this.fail('malformed');
        if (++this.literalIndex === this.literal.length) this.endValue();
        return undefined;
      case State.NumberMinus:
        if (byte === Byte.Zero) this.state = State.NumberZero;
        else if (isDigit(byte)) this.state = State.NumberInt;
        else return this.fail('malformed');
        return undefined;
      case State.NumberZero:
        if (byte === Byte.Dot) this.state = State.NumberDot;
        else if (byte === Byte.LowerE || byte === Byte.UpperE) this.state = State.NumberExponent;
        else return this.afterNumber(byte);
        return undefined;
      case State.NumberInt:
        if (isDigit(byte)) return undefined;
        if (byte === Byte.Dot) this.state = State.NumberDot;
        else if (byte === Byte.LowerE || byte === Byte.UpperE) this.state = State.NumberExponent;
        else return this.afterNumber(byte);
        return undefined;
      case State.NumberDot:
        if (!isDigit(byte)) return this.fail('malformed');
        this.state = State.NumberFraction;
        return undefined;
      case State.NumberFraction:
        if (isDigit(byte)) return undefined;
        if (byte === Byte.LowerE || byte === Byte.UpperE) this.state = State.NumberExponent;
        else return this.afterNumber(byte);
        return undefined;
      case State.NumberExponent:
        if (byte === Byte.Plus || byte === Byte.Minus) this.state = State.NumberExponentSign;
        else if (isDigit(byte)) this.state = State.NumberExponentDigits;
        else return this.fail('malformed');
        return undefined;
      case State.NumberExponentSign:
        if (!isDigit(byte)) return this.fail('malformed');
        this.state = State.NumberExponentDigits;
        return undefined;
      case State.NumberExponentDigits:
        if (isDigit(byte)) return undefined;
        return this.afterNumber(byte);
      case State.Done:
        return this.verdict;
    }
  }

  private beginKey(byte: number): TScanVerdict | undefined {
    if (byte !== Byte.Quote) return this.fail('malformed');
    this.stringIsKey = true;
    this.state = State.String;
    return undefined;
  }

  /** A number ends at the first byte that cannot continue it; that byte is read as what follows a value. */
  private afterNumber(byte: number): TScanVerdict | undefined {
    this.endValue();
    return this.afterValue(byte);
  }

  private afterValue(byte: number): TScanVerdict | undefined {
    if (isWhitespace(byte)) return undefined;
    if (this.depth === 0) return this.fail('malformed');
    if (byte === Byte.CloseBrace || byte === Byte.CloseBracket) return this.close(byte);
    if (byte !== Byte.Comma) return this.fail('malformed');
    this.state = this.stack[this.depth] === OBJECT ? State.Key : State.Value;
    return undefined;
  }
}
