export interface CollectRequest {
  reference: string;
  phoneNumber: string;
  amount: number;
}

/** Mobile-money collection. The local provider accepts every request; MTN MoMo by PAYMENT_PROVIDER=momo. */
export interface PaymentProvider {
  readonly name: string;
  collect(request: CollectRequest): Promise<{ accepted: boolean; providerRef: string }>;
}

export function localPaymentProvider(): PaymentProvider {
  return {
    name: 'local',
    async collect(request) {
      return { accepted: true, providerRef: request.reference };
    },
  };
}
