/** How remark-parse reads a markdown text: its links and the ranges that are code or HTML. */
import { unified } from 'unified';
import remarkParse from 'remark-parse';

export interface RemarkReading {
  links: { url: string; offset: number; kind: 'markdown' | 'definition' }[];
  opaque: [number, number][];
}

const processor = unified().use(remarkParse);

export function remarkReading(text: string): RemarkReading {
  const tree = processor.parse(text);
  const links: RemarkReading['links'] = [];
  const opaque: [number, number][] = [];
  const visit = (node: any): void => {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? 0;
    if (node.type === 'link') links.push({ url: node.url, offset: start, kind: 'markdown' });
    if (node.type === 'definition') links.push({ url: node.url, offset: start, kind: 'definition' });
    if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'html') opaque.push([start, end]);
    for (const c of node.children ?? []) visit(c);
  };
  visit(tree);
  return { links, opaque };
}
