/**
 * Vote integrity (README 'Vote integrity'): the flags a voter's votes in a round can earn, their
 * thresholds, and the decisions a reviewer takes on held votes.
 */

/** `velocity`: more votes in some 60 seconds than the campaign's `velocityPerMinute`; `near-cap`: at least 80% of the per-round cap; `burst`: see BURST_NUMBERS. */
export const VOTE_FLAGS = ['velocity', 'near-cap', 'burst'] as const;
export type VoteFlag = (typeof VOTE_FLAGS)[number];

/** The campaign's `velocityPerMinute` when it sets none. */
export const DEFAULT_VELOCITY_PER_MINUTE = 10;

/** The share of the per-round cap from which a number is flagged `near-cap`. */
export const NEAR_CAP_SHARE = 0.8;

/**
 * `burst`: at least this many numbers (the flagged one included) sharing the first
 * BURST_PREFIX_DIGITS digits (country code, network and the next four: one block of 1,000 numbers,
 * e.g. 256771234xxx) whose first vote in the round is for the same pick, within 60 seconds either
 * side of the flagged number's first vote: a batch of fresh SIMs, sold as a run of numbers, voting
 * together. Not the network alone: when a TV show opens its vote, thousands of new numbers of one
 * network vote for its favourite within a minute, and those are the votes the show wants.
 */
export const BURST_NUMBERS = 10;
export const BURST_PREFIX_DIGITS = 9;

/** What a vote hold is: held out of the counts, then released (counts) or rejected (never counts). */
export type VoteHold = 'held' | 'released' | 'rejected';

/** The ticket SMS of a vote held for review: the customer paid, and is told the vote waits. */
export const heldVoteConfirmation = (teamName: string) => `Thank you. Your vote for ${teamName} was received and is under review.`;
