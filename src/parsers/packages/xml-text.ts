// XML parsing (fast-xml-parser) that keeps the reason and the line when a file is broken; values stay strings.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ParseError } from '../../errors.js';

/** Elements that may repeat are always arrays, so readers never branch on one-or-many. */
export function parseXmlText(text: string, file: string, repeated: readonly string[]): Record<string, unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new ParseError(file, valid.err.line, `invalid XML: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    trimValues: true,
    isArray: (name) => repeated.includes(name),
  });
  try {
    return parser.parse(body) as Record<string, unknown>;
  } catch (error) {
    // The validator lets a few malformed declarations through (`<?"xml …?>`) that the parser then rejects.
    throw new ParseError(file, 1, `invalid XML: ${(error as Error).message.split('\n')[0]}`);
  }
}
