// What each stream client received, kept small: a process numbers every trade id once, and each of
// its clients keeps one byte per number, the times that trade arrived (1,000 clients and thousands
// of trades would otherwise hold millions of map entries).

/** Trade ids, each numbered the first time it is seen in this process. */
export class TradeIds {
  private readonly numbers = new Map<string, number>();
  readonly ids: string[] = [];

  numberOf(id: string): number {
    let number = this.numbers.get(id);
    if (number === undefined) {
      number = this.ids.push(id) - 1;
      this.numbers.set(id, number);
    }
    return number;
  }

  find(id: string): number | undefined {
    return this.numbers.get(id);
  }
}

/** How many times one client received each trade (up to 255, enough to tell once from more). */
export class Receipts {
  private counts = new Uint8Array(256);

  constructor(private readonly tradeIds: TradeIds) {}

  add(id: string): void {
    const number = this.tradeIds.numberOf(id);
    if (number >= this.counts.length) {
      const grown = new Uint8Array(Math.max(number + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[number] = Math.min(255, this.counts[number]! + 1);
  }

  countOf(id: string): number {
    const number = this.tradeIds.find(id);
    return number === undefined ? 0 : (this.counts[number] ?? 0);
  }

  *received(): Iterable<string> {
    for (let number = 0; number < this.counts.length; number++) {
      if (this.counts[number]! > 0) yield this.tradeIds.ids[number]!;
    }
  }
}
