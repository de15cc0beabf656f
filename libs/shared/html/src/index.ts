export { decodeHtmlEntities, htmlToReadableText } from './html-text.converter';
