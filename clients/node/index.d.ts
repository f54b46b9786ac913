// Types of the kit's API and of the state a bot reads (docs/PROTOCOL.md).
export type Color = 'white' | 'blue' | 'green' | 'red' | 'black';
export type Token = Color | 'gold';
export type Counts<K extends string> = Partial<Record<K, number>>;
export type Action =
  | 'pass'
  | { take: Color[] } | { take_two: Color }
  | { reserve: number } | { reserve_deck: 1 | 2 | 3 }
  | { buy: number } | { buy: { card: number; gold: Counts<Color> } }
  | { return: Counts<Token> } | { noble: number };
export interface Card { id: number; level: 1 | 2 | 3; bonus: Color; points: number; cost: Counts<Color> }
export interface Noble { id: number; points: number; requires: Counts<Color> }
export interface Reserved { level: 1 | 2 | 3; from_deck?: boolean; card: Card | null }
export interface Player {
  seat: number; name: string; points: number; tokens: Counts<Token>; bonuses: Counts<Color>;
  cards: Card[]; nobles: Noble[]; reserved: Reserved[];
}
export interface State {
  type: 'state'; room: string; version: number; you?: number; to_act?: number;
  phase: 'main' | 'return_tokens' | 'choose_noble' | 'game_over'; return_count?: number;
  turn: number; supply: Counts<Token>; levels: { level: 1 | 2 | 3; deck: number; cards: (Card | null)[] }[];
  nobles: Noble[]; noble_choices?: Noble[]; players: Player[]; end_triggered: boolean;
  /** The seats whose players resigned, first to resign first (R13.1). */
  resigned?: number[];
  legal_actions: Action[]; readonly me?: Player; readonly myTurn: boolean;
}
export interface Result {
  type: 'result'; game: string; winners: number[]; ranking: { seat: number; name: string; points: number; cards: number; rank: number }[];
  /** The seats whose players resigned, first to resign first (R13.1). */
  resigned?: number[];
  /** How the game ended (R10, R11.2, R11.6, R13.2, R12.6); absent from a
   * server of before 2026-11-29 (read `deadlock` then). */
  end?: 'points' | 'deadlock' | 'no_progress' | 'resigned' | 'deserted' | 'operators';
  deadlock: boolean;
  /** This bot's moves the server refused in the game (illegal ones). */
  refused: number;
}
export interface Options {
  url?: string; room?: string; name?: string; tokenFile?: string;
  create?: {
    /** Built-in bots to seat: each a level's number (1 to 5) or name (docs/BOTS.md#levels). */
    seats?: number; bots?: (1 | 2 | 3 | 4 | 5 | 'random' | 'greedy' | 'level-3' | 'strong' | 'level-5')[]; clock?: { initial_s: number; increment_s: number };
    turn_based?: { per_move_s: number; on_deadline?: 'stand_in' | 'resign' }; listed?: boolean; rated?: boolean;
    stand_in_when_away?: boolean;
    /** Players invited by player_id once the room is made (issue 25); the game starts when they came. */
    invite?: string[];
  };
  onFrame?: (frame: any) => void; maxReconnects?: number; log?: (...args: any[]) => void;
  /** Sees the server's `error` for each move of choose() it refused (code, rule, message). */
  onRefused?: (error: { code: string; rule?: string; message: string }) => void;
  /** Quick play: a rated game of 2, 3 or 4 with whoever is waiting (SPLENDOR_QUEUE). */
  queue?: 2 | 3 | 4;
  /** run(): games in a row (SPLENDOR_GAMES, default 1). */
  games?: number;
  /** Shared between games: the session token kept in memory. */
  session?: { token?: string };
  /**
   * Take challenges (issue 24): listed by GET /api/bots/online, and without a
   * room, queue or create, wait for one. Return true to accept (the kit joins
   * and plays it), a reason to decline, or false for 'generic'.
   */
  onChallenge?: (challenge: Challenge) => boolean | DeclineReason;
  /** The author's secret (8 to 128 characters, SPLENDOR_OWNER): one's bots never play each other in quick play. */
  owner?: string;
  /** run(): the bots' ladder, rated games of this size one after the other, for ever unless `games` (SPLENDOR_LADDER). */
  ladder?: 2 | 3 | 4;
}
/** Why a challenge may be declined (docs/PROTOCOL.md, `decline`). */
export type DeclineReason =
  | 'generic' | 'later' | 'too_fast' | 'too_slow' | 'time_control' | 'rated' | 'casual' | 'no_bot' | 'only_bot';
export const DECLINE_REASONS: DeclineReason[];
/** A challenge (an invitation by player_id), as the server pushes it. */
export interface Challenge {
  type: 'challenge'; invitation: string; room: string;
  from: { name: string; player_id: string; program_bot?: boolean };
  terms: {
    seats: number; players: number; rated?: boolean;
    clock?: { initial_s: number; increment_s: number; stand_in_when_away?: boolean };
    turn_based?: { per_move_s: number; on_deadline: 'stand_in' | 'resign' };
  };
}
/** A program online that takes challenges (GET /api/bots/online). */
export interface BotOnline {
  name: string; player_id: string; rating?: number; deviation?: number; rated_games: number; online_since: number;
}
/** What choose() returns to resign the game (R13). */
export const RESIGN: 'resign';
export function play(choose: (state: State) => Action | typeof RESIGN, options?: Options): Promise<Result>;
export function run(choose: (state: State) => Action | typeof RESIGN, options?: Options): Promise<Result>;
export class KitError extends Error {}
/** An invitation in My games (issue 25): join `room` to accept. */
export interface Invitation {
  id: string; room: string; from: { name: string; player_id: string }; at: number; host: string; seats: number; players: number;
}
/** Every game the session of `token` sits in (GET /api/me/games), those waiting for it first. */
export function myGames(token: string, options?: { url?: string }): Promise<any[]>;
/** The session's invitations, newest first. */
export function invitations(token: string, options?: { url?: string }): Promise<Invitation[]>;
/** Declines an invitation, telling the challenger `reason`; rejects with KitError (404) when the session has none such. */
export function declineInvitation(token: string, id: string, options?: { url?: string; reason?: DeclineReason }): Promise<void>;
/** The server's cards and nobles by id (GET /api/catalogue), fetched once per server. */
export function catalogue(options?: { url?: string }): Promise<{ cards: Card[]; nobles: Noble[] }>;
/** A lean state read back into the full one, with the catalogue and the last full state of the game. */
export function expandLean(raw: any, catalogue: { cards: Card[]; nobles: Noble[] }, full: any): any;
/** The programs connected now that take challenges, longest online first. */
export function botsOnline(options?: { url?: string }): Promise<BotOnline[]>;
