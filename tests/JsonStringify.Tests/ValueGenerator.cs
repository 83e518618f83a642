using System.Globalization;
using System.Text;

namespace JsonStringify.Tests;

/// <summary>
/// Seeded random JSON.stringify calls, as JS source: nested objects and arrays with holes, strings with every kind of
/// escape and surrogate, numbers of every magnitude, boxed primitives, toJSON, getters, proxies, replacers and spaces.
/// It avoids what Jint's serializer does differently on purpose (integers from 2^53 to 2^63, a callable root).
/// </summary>
internal sealed class ValueGenerator(int seed, int maxDepth = 4, int maxWidth = 6, bool tinyNumbers = true)
{
    private static readonly string[] s_keys = ["a", "b", "c", "0", "1", "10", "2", "-1", "01", "1.5", "key with space", "\"q\"", "\\", "ключ", "日本", "\n", ""];
    private static readonly char[] s_chars = ['a', 'z', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\0', '\u0001', '\u001f', '\u007f', 'é', '日', '\u2028', '\u2029', '\uD83D', '\uDE00', '\uD800', '\uDFFF', '<', '\''];

    private readonly Random _random = new(seed);

    public string NextScript()
    {
        string value = Value(0);
        string replacer = _random.Next(8) switch
        {
            0 => "(k, v) => v",
            1 => "(k, v) => typeof v === 'number' ? v * 2 : v",
            2 => "(k, v) => k === 'a' ? undefined : v",
            3 => "function (k, v) { return typeof v === 'string' ? k + ':' + v : v; }",
            4 => "['a', 'b', '0', 1, new String('c'), 'a']",
            5 => "null",
            _ => "undefined",
        };
        string space = _random.Next(8) switch
        {
            0 => "2",
            1 => "'\\t'",
            2 => "12",
            3 => "'abcdefghijklmn'",
            4 => "new Number(3)",
            5 => "-1",
            _ => "undefined",
        };
        return $"JSON.stringify({value}, {replacer}, {space})";
    }

    private string Value(int depth)
    {
        int kind = depth >= maxDepth ? _random.Next(6) : _random.Next(16);
        return kind switch
        {
            0 => "null",
            1 => _random.Next(2) == 0 ? "true" : "false",
            2 or 3 => Number(),
            4 or 5 => StringLiteral(),
            6 or 7 => Array(depth),
            8 or 9 => Object(depth),
            10 => _random.Next(3) switch
            {
                0 => $"new Number({Number()})",
                1 => $"new String({StringLiteral()})",
                _ => "new Boolean(" + (_random.Next(2) == 0 ? "true" : "false") + ")",
            },
            11 => $"{{toJSON(k) {{ return {(_random.Next(2) == 0 ? "k + '!'" : Value(depth + 1))}; }}}}",
            12 => $"{{get g() {{ return {Value(depth + 1)}; }}, h: {Value(depth + 1)}}}",
            13 => depth == 0 ? "undefined" : _random.Next(3) switch
            {
                0 => "function () {}",
                1 => "Symbol('s')",
                _ => "undefined",
            },
            14 => $"new Proxy({Object(depth)}, {{}})",
            _ => _random.Next(3) switch
            {
                0 => "new Date(" + _random.Next(0, int.MaxValue).ToString(CultureInfo.InvariantCulture) + "000)",
                1 => $"Object.assign(Object.create(null), {Object(depth)})",
                _ => "1n",
            },
        };
    }

    private string Array(int depth)
    {
        int length = _random.Next(maxWidth);
        var sb = new StringBuilder("[");
        for (int i = 0; i < length; i++)
        {
            if (i > 0)
            {
                sb.Append(", ");
            }

            // A hole now and then.
            if (_random.Next(8) != 0)
            {
                sb.Append(Value(depth + 1));
            }
        }

        if (length > 0 && _random.Next(8) == 0)
        {
            sb.Append(',');
        }

        return sb.Append(']').ToString();
    }

    private string Object(int depth)
    {
        int count = _random.Next(maxWidth);
        var sb = new StringBuilder("{");
        for (int i = 0; i < count; i++)
        {
            if (i > 0)
            {
                sb.Append(", ");
            }

            sb.Append(Quote(s_keys[_random.Next(s_keys.Length)])).Append(": ").Append(Value(depth + 1));
        }

        return sb.Append('}').ToString();
    }

    private string Number()
    {
        double value = _random.Next(12) switch
        {
            0 => _random.Next(-1000, 1000),
            1 => _random.NextDouble(),
            2 => (_random.NextDouble() - 0.5) * Math.Pow(10, _random.Next(-30, 30)),
            3 => BitConverter.Int64BitsToDouble(_random.NextInt64()),
            4 => _random.NextInt64(-(1L << 53) + 1, 1L << 53),
            5 => Math.Round(_random.NextDouble() * 1000, _random.Next(1, 6)),
            6 => Math.Pow(2, _random.Next(-1074, -900)),
            7 => Math.Pow(10, _random.Next(21, 300)) * (1 + _random.Next(9)),
            8 => _random.Next(4) switch { 0 => double.NaN, 1 => double.PositiveInfinity, 2 => double.NegativeInfinity, _ => -0d },
            9 => 1e21 * (1 + (_random.NextDouble() - 0.5) * 1e-3),
            10 => 1e-7 * (1 + _random.NextDouble() * 20),
            _ => _random.Next() / 1024d,
        };

        // Jint 4.16.0 writes subnormals of a few significant bits (5e-324, 4e-323) as 0, a bug later releases fixed:
        // where the oracle has it, they are scaled out of that range.
        if (!tinyNumbers && value != 0 && Math.Abs(value) < 1e-320)
        {
            value *= 1e10;
        }

        // Integers from 2^53 to 2^63 are where Jint prints every digit instead of the shortest (a known deviation).
        if (Math.Abs(value) is >= 9007199254740992d and < 9.3e18)
        {
            value /= 4096;
        }

        if (double.IsNaN(value))
        {
            return "NaN";
        }

        if (double.IsInfinity(value))
        {
            return value > 0 ? "Infinity" : "-Infinity";
        }

        return value == 0 && double.IsNegative(value) ? "-0" : "(" + value.ToString("R", CultureInfo.InvariantCulture) + ")";
    }

    private string StringLiteral()
    {
        int length = _random.Next(12);
        var chars = new char[length];
        for (int i = 0; i < length; i++)
        {
            chars[i] = s_chars[_random.Next(s_chars.Length)];
        }

        return Quote(new string(chars));
    }

    // A JS string literal with every char outside printable ASCII escaped, so that lone surrogates survive the source.
    private static string Quote(string value)
    {
        var sb = new StringBuilder("'");
        foreach (char c in value)
        {
            if (c is >= ' ' and <= '~' and not '\\' and not '\'')
            {
                sb.Append(c);
            }
            else
            {
                sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
            }
        }

        return sb.Append('\'').ToString();
    }
}
