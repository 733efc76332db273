import type { Db } from './client';

export interface SeedOptions {
  timeZone: string;
}

/** Demo data for a first start; filled out in the seed module. */
export async function seedDemoData(_db: Db, _options: SeedOptions): Promise<string> {
  return 'nothing yet';
}
