// The pages with the enquiry form load this one small script; it loads the form's React part.
import '../../form/client.ts';
