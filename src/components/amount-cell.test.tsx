import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AmountCell, REFERENCE_COPIED_MS } from './amount-cell';

describe('AmountCell', () => {
  it('shows the amount and copies the payment reference, saying so for a moment', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<AmountCell amount={20000} paymentRef="ref-123" />);
    expect(screen.getByText('20,000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy payment reference' }));
    expect(writeText).toHaveBeenCalledWith('ref-123');
    expect(await screen.findByRole('button', { name: 'Payment reference copied' })).toBeInTheDocument();
    act(() => void jest.advanceTimersByTime(REFERENCE_COPIED_MS));
    expect(screen.getByRole('button', { name: 'Copy payment reference' })).toBeInTheDocument();
    jest.useRealTimers();
  });

  it('offers no copy button for a call without a reference', () => {
    render(<AmountCell amount={null} paymentRef={null} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
