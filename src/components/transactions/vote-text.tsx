import type { Theme } from '@mui/material/styles';
import type { VotePick } from '../../domain/campaigns';

/**
 * What a vote is shown with after its pick: its game ('' for a general pick), or, outside its
 * campaign's own lists, its campaign (the game is then in the hover text and the call's details).
 */
export function voteContext(vote: VotePick, withCampaign: boolean): string {
  return withCampaign ? vote.campaign : vote.game;
}

/** The whole vote, for the hover text: 'Croatia · Australia vs Croatia · World Cup 2022'. */
const voteTitle = (vote: VotePick) => [vote.pick, vote.game, vote.campaign].filter(Boolean).join(' · ');

/**
 * A vote in a list: the pick first ('Croatia'), what it was picked in after it, muted
 * ('Australia vs Croatia'). Plain elements, as the other cells (cell-controls.tsx).
 */
export function VoteText({ vote, withCampaign = false }: { vote: VotePick; withCampaign?: boolean }) {
  const context = voteContext(vote, withCampaign);
  return (
    <span className="vote-text" title={voteTitle(vote)}>
      <span className="vote-pick">{vote.pick}</span>
      {context && <span className="vote-context">{context}</span>}
    </span>
  );
}

/** The class rules behind VoteText, for the theme's global styles. */
export function voteTextStyles(theme: Theme) {
  return {
    '.vote-text': { display: 'inline-flex', alignItems: 'baseline', columnGap: 6, flexWrap: 'wrap', minWidth: 0, maxWidth: '100%' },
    '.vote-pick': { flex: 'none', fontWeight: 500 },
    '.vote-context': { color: theme.palette.text.secondary },
  };
}
