import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/**
 * Chooses a code in the service-code switcher as a person does: types it, then picks its option. An
 * option reads 'code, category, today's figures', so it is found by its name's start.
 */
export async function chooseServiceCode(user: ReturnType<typeof userEvent.setup>, name: string): Promise<void> {
  const field = await screen.findByRole('combobox', { name: 'Service code' });
  await user.click(field);
  await user.clear(field);
  await user.type(field, name);
  await user.click(await screen.findByRole('option', { name: (accessibleName) => accessibleName.startsWith(name) }));
}
