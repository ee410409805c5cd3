// Escaping for XML and HTML text and attributes, shared by the Atom feed and the HTML report.

// Characters XML 1.0 does not allow at all (even escaped): C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone surrogates.
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text or attribute value: markup characters become entities, characters XML cannot carry are dropped. */
export function escapeXml(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
