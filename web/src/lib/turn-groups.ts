/**
 * The Turns page shows consecutive turns of one session under one heading: a run of prompts from a
 * long session reads as that session's, and its title is not repeated on every turn. Order is
 * kept; a session that comes back later in the list starts a new group.
 */
export interface TurnGroup<T> {
  sessionId: string;
  turns: T[];
}

export function groupTurns<T extends { sessionId: string }>(turns: readonly T[]): Array<TurnGroup<T>> {
  const groups: Array<TurnGroup<T>> = [];
  for (const turn of turns) {
    const last = groups.at(-1);
    if (last?.sessionId === turn.sessionId) last.turns.push(turn);
    else groups.push({ sessionId: turn.sessionId, turns: [turn] });
  }
  return groups;
}
