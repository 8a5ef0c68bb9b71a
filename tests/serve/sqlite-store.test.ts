import { describe } from 'vitest';
import { SqliteStore } from '../../cli/serve/store/sqlite-store.ts';
import { tempData } from '../helpers/serve.ts';
import { mailContract, personalDataContract, storeContract } from './store-contract.ts';

const sqlite = async () => {
  const data = tempData();
  return { open: async () => SqliteStore.open(data.dir), cleanup: data.cleanup };
};

describe('the SQLite store keeps the enquiry store contract', () => {
  storeContract(sqlite);
});
describe('the SQLite store keeps the e-mail contract', () => {
  mailContract(sqlite);
});
describe('the SQLite store keeps the personal data contract', () => {
  personalDataContract(sqlite);
});
