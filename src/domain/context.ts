/** Facts a decision may use that are not in the state: when, who, and the sequence number it will get. */
export interface CommandContext {
  at: string;
  by: string;
  seq: number;
}
