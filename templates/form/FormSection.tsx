import { PhoneAndEmail } from '../Contacts.tsx';
import type { FormModel, Text } from '../model.ts';
import { scriptJson } from '../script-json.ts';
import { sharedHtml } from '../shared-html.ts';
import { T } from '../Text.tsx';
import { EnquiryForm } from './EnquiryForm.tsx';
import { formProps } from './props.ts';

/**
 * The enquiry section of a page: heading, intro, the form's HTML and the data its script reads,
 * and the message with phone and e-mail that client.ts shows when the script fails to load.
 * Its content depends on nothing but these two props, which the pages of a locale share:
 * rendered once per form and heading (`sharedHtml`), like the form inside it.
 */
export function FormSection(props: { form: FormModel; heading: Text }) {
  return (
    <section
      id="enquiry"
      className="enquiry"
      aria-labelledby="enquiry-title"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of <SectionContent>, made once per form and heading
      dangerouslySetInnerHTML={{ __html: sharedHtml(SectionContent, props) }}
    />
  );
}

/** What the section holds: it starts and ends with an element, so its HTML is the same rendered apart or in place. */
function SectionContent({ form, heading }: { form: FormModel; heading: Text }) {
  return (
    <>
      <h2 id="enquiry-title">
        <T value={heading} />
      </h2>
      <T value={form.labels.intro} as="p" />
      <div className="script-failed" role="alert" data-enquiry-fallback hidden>
        <T value={form.labels.scriptFailed} as="p" />
        <p>
          <PhoneAndEmail contacts={form.contacts} />
        </p>
      </div>
      <div
        data-enquiry-form
        // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of <EnquiryForm>, made once per form model
        dangerouslySetInnerHTML={{ __html: sharedHtml(EnquiryForm, form) }}
      />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data for the form script, `<` escaped; the rest it reads from the form */}
      <script type="application/json" id="enquiry-props" dangerouslySetInnerHTML={{ __html: scriptJson(formProps(form)) }} />
    </>
  );
}
