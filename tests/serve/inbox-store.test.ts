import { describe } from 'vitest';
import { Inbox } from '../../cli/serve/inbox.ts';
import { tempData } from '../helpers/serve.ts';
import { storeContract } from './store-contract.ts';

describe('the file inbox keeps the enquiry store contract', () => {
  storeContract(async () => {
    const data = tempData();
    return { open: () => Inbox.open(data.dir), cleanup: data.cleanup };
  });
});
