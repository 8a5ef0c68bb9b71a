import { describe, expect, it } from 'vitest';
import { enquiryRules } from '../../cli/schema/enquiry.ts';
import { ENQUIRY_RULES } from '../../cli/schema/enquiry-rules.ts';

describe('the enquiry rules the build gives the form', () => {
  it('are what the enquiry schema derives (the build reads them without loading zod)', () => {
    expect(ENQUIRY_RULES).toEqual(enquiryRules());
  });
});
