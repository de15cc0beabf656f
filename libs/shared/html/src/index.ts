export { decodeHtmlEntities, htmlToReadableText, scriptElements } from './html-text.converter';
