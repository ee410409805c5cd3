// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the cases are HCL text, whose interpolations are written ${…}
import { describe, expect, it } from 'vitest';
import { parseHcl } from '../../../src/parsers/terraform/hcl-parser.js';
import { exactValue, OPAQUE, resolvableValue } from '../../../src/parsers/terraform/hcl-values.js';

/** The full parser's value for one attribute's expression, or undefined when it rejects the text. */
function parsed(expression: string): { value: unknown } | undefined {
  try {
    return { value: parseHcl(`x =${expression}\n`).x };
  } catch {
    return undefined;
  }
}

/** What values.ts can take from a value: a plain string, or exactly `${reference}`. */
function resolvesToNothing(value: unknown): boolean {
  if (typeof value !== 'string') return true;
  if (!value.includes('${') && !value.includes('%{')) return value.trim() === '';
  return !/^\$\{\s*[\w.-]+\s*\}$/.test(value);
}

/** Expressions as real modules write them (terraform-aws-modules, terraform-google-modules, Azure/aks). */
const EXACT = [
  ' "eu-west-1"',
  ' var.region',
  ' data.aws_region.current.name',
  ' "${var.name}-${local.suffix}"',
  ' "${ var.region }"',
  ' "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"',
  ' "~> 5.0" # pinned',
  ' 5',
  ' -1.5',
  ' 1e3',
  ' true',
  ' null',
  ' ["a", var.b, 3]',
  ' [\n    "a",\n    # why\n    "b",\n  ]',
  ' { aws = aws.us, "aws.eu" = aws.eu, aws.src = aws.x }',
  ' {\n      source  = "hashicorp/aws"\n      version = ">= 6.0"\n      configuration_aliases = [aws.alternate]\n    }',
  ' "100%"',
  ' "cost $5"',
  ' "a/*b*/c"',
  ' /* lead */ var.x',
  ' "http://x#y"',
  ' <<EOT\n{"a": 1}\nEOT',
  ' <<-EOT\n    echo "All done"\n      indented\n  EOT',
  // Blank lines in an indented heredoc stay as written and do not count for the indent (node bootstrap settings).
  ' <<-EOT\n    [settings.kubernetes]\n    max-pods = 58\n\n    [settings.kubernetes.node-labels]\n  EOT',
  ' <<-EOT\n    first\n  \n        \n\t\n    last\n  EOT',
  ' <<-EOT\n\n    after a blank first line\n  EOT',
  ' <<-EOT\nflush left\n\n  indented\nEOT',
];

const OPAQUE_CASES = [
  ' coalesce(var.region, "eu-west-1")',
  ' var.regional ? var.region : join("-", slice(split("-", var.zones[0]), 0, 2))',
  ' [for k, v in var.node_pools : k]',
  ' {\n    for k, v in var.x : k => v\n  }',
  ' !local.enabled',
  ' (var.a && var.b)',
  ' local.x[0]',
  ' "ex-${basename(path.cwd)}"',
  ' "ex-${replace(basename(path.cwd), "_", "-")}"',
  ' "%{ if var.x }a%{ endif }"',
  ' <<-EOT\n    #!/bin/bash\n    echo ${var.cluster_name}\n  EOT',
  ' try(var.x, null) # fallback',
  ' [{\n    content = <<-EOT\n      echo\n    EOT\n  }]',
];

const DECLINED = [
  ' "a\\"b"',
  ' "$${literal}"',
  ' "${"nested"}"',
  ' "${5}x"',
  ' "${true}"',
  ' var.x.0',
  ' -var.x',
  ' "é"',
  ' <<-EOT\n\tTabbed\n  EOT',
  ' <<-EOT\n    a\n\n  \u00a0b\n  EOT',
  ' <<-EOT\n    a\n  \u0301b\n  EOT',
  ' true ? "a" : "b"',
];

describe('reading simple HCL expressions without the full parser', () => {
  it.each(EXACT)('gives exactly the value the full parser gives: %j', (expression) => {
    const full = parsed(expression);
    expect(full).toBeDefined();
    expect(resolvableValue(expression)).toEqual(full);
    if (!expression.includes('<<')) expect(exactValue(expression)).toEqual(full);
  });

  it.each(OPAQUE_CASES)('marks as opaque only what resolves to nothing in the full parse: %j', (expression) => {
    const full = parsed(expression);
    expect(full).toBeDefined();
    expect(resolvableValue(expression)).toEqual({ value: OPAQUE });
    expect(resolvesToNothing(full?.value)).toBe(true);
  });

  it.each(DECLINED)('leaves to the full parser what it cannot be sure of: %j', (expression) => {
    expect(exactValue(expression)).toBeUndefined();
    expect(resolvableValue(expression)).toBeUndefined();
  });

  it('agrees with the full parser on generated expressions: same value, or opaque only where nothing resolves', async () => {
    const fc = (await import('fast-check')).default;
    const name = fc.constantFrom('var', 'local', 'aws', 'data', 'region', 'x-y', 'true', 'null', 'for', '_a1');
    const traversal = fc.array(name, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));
    const literalText = fc
      .array(fc.constantFrom('a', ' ', '-', '$', '%', '{', '}', '#', '/', '*', '\\', '\\"', 'é', '\t', '.', ':'), {
        maxLength: 6,
      })
      .map((parts) => parts.join(''));
    const leaf = fc.oneof(
      traversal,
      literalText.map((text) => `"${text}"`),
      fc.tuple(literalText, traversal, literalText).map(([a, b, c]) => `"${a}\${${b}}${c}"`),
      fc.tuple(literalText, traversal).map(([a, b]) => `"${a}\${ f(${b}) }"`),
      fc.constantFrom('0', '-2', '1.5', '2e3', '007', 'true', 'false', 'null', '"%{ if a }b%{ endif }"'),
      fc.tuple(name, traversal).map(([f, b]) => `${f}(${b})`),
      fc.tuple(traversal, traversal).map(([a, b]) => `${a} == "" ? ${a} : ${b}`),
      fc.tuple(traversal).map(([a]) => `${a}[0]`),
    );
    const expression = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
        fc
          .array(
            fc.tuple(
              fc.oneof(
                name,
                traversal,
                literalText.map((t) => `"${t}"`),
              ),
              tie('value'),
            ),
            { maxLength: 3 },
          )
          .map((items) => `{\n${items.map(([key, value]) => `  ${key} = ${value}`).join('\n')}\n}`),
        fc.tuple(leaf, fc.constantFrom(' # note', ' // note', ' /* note */', '  ')).map(([a, b]) => `${a}${b}`),
        fc
          .tuple(
            fc.constantFrom('<<EOT', '<<-EOT'),
            fc.array(fc.tuple(fc.constantFrom('', ' ', '  ', '    ', '\t', '  \t'), literalText), {
              minLength: 1,
              maxLength: 4,
            }),
          )
          .map(([open, lines]) => `${open}\n${lines.map(([indent, line]) => `${indent}${line}`).join('\n')}\nEOT`),
      ),
    })).value;
    let compared = 0;
    fc.assert(
      fc.property(expression, (text) => {
        const expressionText = ` ${text}`;
        const full = parsed(expressionText);
        if (!full) return true;
        compared++;
        const exact = exactValue(expressionText);
        if (exact) expect(exact).toEqual(full);
        const resolvable = resolvableValue(expressionText);
        if (resolvable?.value === OPAQUE) expect(resolvesToNothing(full.value)).toBe(true);
        else if (resolvable) expect(resolvable).toEqual(full);
        return true;
      }),
      { numRuns: 400, seed: 15 },
    );
    expect(compared).toBeGreaterThan(100);
  });
});
