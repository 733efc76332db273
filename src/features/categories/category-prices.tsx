import { useState } from 'react';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { CellButton } from '../../components/cell-controls';
import { DefinitionList } from '../../components/definition-list';
import { CATEGORY_LEVELS, categoryLevelLabel } from '../../domain/category-levels';
import type { Category } from '../../domain/entities';
import { formatMoney } from '../../domain/format';

/** The prices a category sets, lowest and highest: 'UGX 1,000 – 15,000 · 15 levels'. */
export function priceSummary(category: Category): string {
  const prices = CATEGORY_LEVELS.map((level) => category[level]).filter((price): price is number => typeof price === 'number');
  if (prices.length === 0) return 'No prices';
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  const range = low === high ? formatMoney(low) : `${formatMoney(low)} – ${formatMoney(high)}`;
  return `UGX ${range} · ${prices.length} ${prices.length === 1 ? 'level' : 'levels'}`;
}

/**
 * A category's prices in one cell (a column per level pushes Agent and Created_at off screen
 * at 1440 px): the range, and 'All prices' opening every level's price, one click away.
 */
export function CategoryPrices({ category }: { category: Category }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const title = `Prices of ${category.name}`;
  return (
    <>
      <span style={{ marginRight: 8 }}>{priceSummary(category)}</span>
      <CellButton aria-label={`All prices of ${category.name}`} aria-haspopup="dialog" aria-expanded={anchor !== null} onClick={(event) => setAnchor(event.currentTarget)}>
        All prices
      </CellButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': title, sx: { p: 2, minWidth: 240 } } }}
      >
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          {title} (UGX)
        </Typography>
        <DefinitionList dense items={CATEGORY_LEVELS.map((level) => ({ label: categoryLevelLabel(level), value: formatMoney(category[level]) || '—' }))} />
      </Popover>
    </>
  );
}
