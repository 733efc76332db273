import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateField, INVALID_DATE } from './date-field';

/** The field as a screen holds it: the chosen day lives above it and is shown beside it. */
function Filter({ onChange }: { onChange: (day: string) => void }) {
  const [day, setDay] = useState('2026-11-22');
  return (
    <>
      <DateField
        label="Date"
        value={day}
        onChange={(next) => {
          onChange(next);
          setDay(next);
        }}
      />
      <output aria-label="Chosen day">{day}</output>
    </>
  );
}

function renderField() {
  const onChange = jest.fn();
  render(<Filter onChange={onChange} />);
  return { onChange, user: userEvent.setup(), field: screen.getByRole('textbox', { name: 'Date' }), chosen: () => screen.getByRole('status', { name: 'Chosen day' }) };
}

describe('DateField', () => {
  it('shows the day as MM/DD/YYYY and takes a typed MM/DD/YYYY date', async () => {
    const { user, field, chosen, onChange } = renderField();
    expect(field).toHaveValue('11/22/2026');
    await user.clear(field);
    await user.type(field, '01/05/2020');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(chosen()).toHaveTextContent('2020-01-05');
    expect(screen.queryByText(INVALID_DATE)).not.toBeInTheDocument();
    // Eight digits alone, as people type into date fields, and a blur shows it MM/DD/YYYY.
    await user.clear(field);
    await user.type(field, '02292024');
    await user.tab();
    expect(chosen()).toHaveTextContent('2024-02-29');
    expect(field).toHaveValue('02/29/2024');
  });

  it('says an invalid date is invalid and changes nothing', async () => {
    const { user, field, chosen, onChange } = renderField();
    await user.clear(field);
    await user.type(field, '02/30/2026');
    expect(field).toHaveAccessibleDescription(INVALID_DATE);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, '11/2');
    await user.tab();
    expect(screen.getByText(INVALID_DATE)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    expect(chosen()).toHaveTextContent('2026-11-22');
    // Fixing it clears the message.
    await user.clear(field);
    await user.type(field, '11/21/2026');
    expect(screen.queryByText(INVALID_DATE)).not.toBeInTheDocument();
    expect(chosen()).toHaveTextContent('2026-11-21');
  });

  it('loads the calendar when opened and takes the day chosen in it', async () => {
    const { user, field, chosen } = renderField();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const calendar = await screen.findByRole('dialog', { name: 'Date' });
    expect(within(calendar).getByText('November 2026')).toBeInTheDocument();
    expect(within(calendar).getByRole('gridcell', { name: '22' })).toHaveAttribute('aria-selected', 'true');
    await user.click(within(calendar).getByRole('gridcell', { name: '5' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(chosen()).toHaveTextContent('2026-11-05');
    expect(field).toHaveValue('11/05/2026');

    // From the keyboard: the chosen day has the focus, the arrows move it, Enter picks.
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const again = await screen.findByRole('dialog', { name: 'Date' });
    await waitFor(() => expect(within(again).getByRole('gridcell', { name: '5' })).toHaveFocus());
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(chosen()).toHaveTextContent('2026-11-06');
  });

  it('optional: shows no day as an empty field, and emptying it answers no day', async () => {
    const onChange = jest.fn();
    function Optional() {
      const [day, setDay] = useState('');
      return (
        <DateField
          label="From"
          optional
          value={day}
          onChange={(next) => {
            onChange(next);
            setDay(next);
          }}
        />
      );
    }
    render(<Optional />);
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: 'From' });
    expect(field).toHaveValue('');
    await user.type(field, '05/01/2026');
    expect(onChange).toHaveBeenLastCalledWith('2026-05-01');
    await user.clear(field);
    expect(onChange).toHaveBeenLastCalledWith('');
    await user.tab();
    expect(field).toHaveValue('');
    expect(screen.queryByText(INVALID_DATE)).not.toBeInTheDocument();
  });
});
