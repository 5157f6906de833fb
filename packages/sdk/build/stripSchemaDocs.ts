import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/** Route fields that only feed the OpenAPI document; the client never reads them. */
const DOC_FIELDS = new Set([
  'summary',
  'description',
  'tags',
  // Server-side only: who may call, legacy paths, wallet scope.
  'auth',
  'aliases',
  'walletParam',
  // The key of the route in the manifest: createClient sets it from there.
  'operationId',
]);

function isDefineRouteArgument(node: ts.Node): boolean {
  const call = node.parent;
  return (
    ts.isCallExpression(call) &&
    ts.isIdentifier(call.expression) &&
    call.expression.text === 'defineRoute'
  );
}

function nameOf(property: ts.ObjectLiteralElementLike): string | undefined {
  return (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
    ts.isIdentifier(property.name)
    ? property.name.text
    : undefined;
}

/**
 * `200: { description, schema }`: one response of a route, keyed by its HTTP status (a 304
 * carries a description only).
 */
function isResponseEntry(node: ts.ObjectLiteralExpression): boolean {
  const property = node.parent;
  return ts.isPropertyAssignment(property) && ts.isNumericLiteral(property.name);
}

/** `request: { params, query, body, headers }` of a route. */
function isRouteRequest(node: ts.ObjectLiteralExpression): boolean {
  const property = node.parent;
  return (
    ts.isPropertyAssignment(property) &&
    ts.isIdentifier(property.name) &&
    property.name.text === 'request' &&
    isDefineRouteArgument(property.parent)
  );
}

const stripDocs: ts.TransformerFactory<ts.SourceFile> = (context) => {
  const keep = (node: ts.ObjectLiteralExpression, kept: (name: string) => boolean) =>
    ts.visitEachChild(
      context.factory.updateObjectLiteralExpression(
        node,
        node.properties.filter((property) => kept(nameOf(property) ?? '')),
      ),
      visit,
      context,
    );
  const visit = (node: ts.Node): ts.Node => {
    // `schema.meta({ description, examples })` → `schema`: metadata for the OpenAPI document.
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'meta'
    ) {
      return ts.visitNode(node.expression.expression, visit) as ts.Expression;
    }
    if (!ts.isObjectLiteralExpression(node)) return ts.visitEachChild(node, visit, context);
    // `200: { description, schema }` → `200: { schema }`: the client reads the schema of a
    // status, never its description.
    if (isResponseEntry(node)) return keep(node, (name) => name !== 'description');
    if (isDefineRouteArgument(node)) return keep(node, (name) => !DOC_FIELDS.has(name));
    // `request: { params, query, body, headers }` → `request: { headers }`: the request schemas
    // only type the client's parameters (the declaration build reads the source, not this
    // bundle); at run time the client reads the header names alone and the API validates.
    if (isRouteRequest(node)) return keep(node, (name) => name === 'headers');
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => markPure(ts.visitNode(file, visit) as ts.SourceFile);
};

/**
 * `export const X = z.object({ a: z.string() })` →
 * `export const X = /* @__PURE__ *\/ z.object({ a: /* @__PURE__ *\/ z.string() })`: a schema no
 * client route uses is then dropped from the bundle (building a zod schema has no side effects,
 * but the bundler cannot know that on its own). Nested constructions are marked too: the
 * bundler keeps the arguments of a dropped pure call unless they are pure themselves.
 * Function bodies (refinements, transforms, helpers) are left alone: a call there runs later.
 */
function markPure(file: ts.SourceFile): ts.SourceFile {
  const mark = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node)) {
      ts.addSyntheticLeadingComment(
        node,
        ts.SyntaxKind.MultiLineCommentTrivia,
        ' @__PURE__ ',
        false,
      );
    }
    ts.forEachChild(node, mark);
  };
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.initializer) mark(declaration.initializer);
    }
  }
  return file;
}

/**
 * Drops documentation strings (route summaries, descriptions, tags, zod `.meta()`) from the
 * bundled packages/schemas source: the API serves them in its OpenAPI document, the client
 * only needs paths, methods, the header names a route reads and the response schemas. Request
 * schemas go too: they give the client its parameter types, which the declaration build takes
 * from the source. Response validation is unchanged.
 */
export const stripSchemaDocs: Plugin = {
  name: 'strip-schema-docs',
  setup(build) {
    build.onLoad({ filter: /\/packages\/schemas\/src\/.*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const file = ts.createSourceFile(args.path, source, ts.ScriptTarget.ES2022, true);
      const [stripped] = ts.transform(file, [stripDocs]).transformed;
      return { contents: ts.createPrinter().printFile(stripped ?? file), loader: 'ts' };
    });
  },
};
