import { describe } from 'vitest';
import { Inbox } from '../../cli/serve/inbox.ts';
import { tempData } from '../helpers/serve.ts';
import { mailContract, personalDataContract, storeContract } from './store-contract.ts';

const fileInbox = async () => {
  const data = tempData();
  return { open: () => Inbox.open(data.dir), cleanup: data.cleanup };
};

describe('the file inbox keeps the enquiry store contract', () => {
  storeContract(fileInbox);
});
describe('the file inbox keeps the e-mail contract', () => {
  mailContract(fileInbox);
});
describe('the file inbox keeps the personal data contract', () => {
  personalDataContract(fileInbox);
});
