using System.Collections;
using System.Collections.ObjectModel;
using System.Dynamic;
using System.Text.Json.Nodes;
using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace JsonStringify.Tests;

/// <summary>
/// Trees of CLR values as a host hands them to Jint, made from a seed alone: collections behind members declared as
/// every interface a collection has (so that the type Jint exposes is not the runtime type), dictionaries,
/// ExpandoObject, records, lookups and groupings, custom collections with indexers, enums, dates, JsonNode, script
/// functions and proxies over wrappers (made in <see cref="Engine"/>), toJSON keys, and cycles. The same seed and
/// engine configuration make the same tree in every engine.
/// </summary>
internal sealed class HostValueGenerator
{
    // Keys of generated dictionaries; the replacer list of the differential test names some of them.
    public static readonly string[] Keys = ["a", "b", "Value", "0", "10", "x y", "\u00e9", "toJSON"];

    private static readonly double[] s_doubles = [0, -0.0, 0.1, 1.5, -2.25, 1e21, 1e-7, double.NaN, double.PositiveInfinity, 123456789.125, 5e-324];

    private static readonly string[] s_strings = ["", "s", "line\nbreak", "q\"uote", "\ud800", "\u2028", "\u00e9t\u00e9", "\ud83d\ude00"];

    private readonly Random _random;
    private readonly Engine _engine;
    private readonly JsValue _makeProxy;
    private int _nodes;

    public HostValueGenerator(int seed, Engine engine)
    {
        _random = new Random(seed);
        _engine = engine;
        _makeProxy = engine.Evaluate("""
            (function (target, kind) {
                switch (kind) {
                    case 0: return new Proxy(target, {});
                    case 1: return new Proxy(target, { ownKeys: function (t) { return Reflect.ownKeys(t); } });
                    case 2: return new Proxy(new Proxy(target, {}), { get: function (t, k, r) { return Reflect.get(t, k, r); } });
                    default: return new Proxy(target, { getOwnPropertyDescriptor: function (t, k) { return Reflect.getOwnPropertyDescriptor(t, k); } });
                }
            })
            """);
    }

    /// <summary>The next tree: a container at the root, of at most about 60 values and 4 levels.</summary>
    public object? NextTree()
    {
        _nodes = 0;
        return Next(depth: 4);
    }

    private object? Next(int depth)
    {
        _nodes++;
        if (depth == 0 || _nodes > 60 || (_nodes > 1 && _random.Next(4) == 0))
        {
            return Primitive();
        }

        return _random.Next(40) switch
        {
            < 5 => new List<object?>(Children(depth)),
            < 7 => Children(depth).ToArray(),
            7 => new HashSet<object?>(Children(depth)),
            8 => new Queue<object?>(Children(depth)),
            9 => new Stack<object?>(Children(depth)),
            10 => new LinkedList<object?>(Children(depth)),
            < 15 => StringDictionary(depth),
            15 => Children(depth).Select((v, i) => (v, i)).ToDictionary(p => p.i * 3, p => p.v),
            16 => new SortedDictionary<string, object?>(StringDictionary(depth), StringComparer.Ordinal),
            17 => new ReadOnlyDictionary<string, object?>(StringDictionary(depth)),
            < 20 => Expando(depth),
            < 26 => Held(depth),
            < 28 => new Point(_random.Next(-5, 5), PickString(), Next(depth - 1)),
            28 => new PointStruct(_random.Next(100), Next(depth - 1)),
            29 => new Bag(Children(depth)),
            30 => new ReadOnlyBag(Children(depth)),
            31 => new Sequence(Children(depth)),
            32 => new OldCollection(Children(depth)),
            33 => Numbers().ToLookup(n => n % 2),
            34 => Numbers().Append(1).GroupBy(n => n % 3).First(),
            35 => Proxy(depth),
            36 => Cycle(depth),
            37 => JsonNodeValue(),
            38 => _random.Next(2) == 0
                ? new Sneaky()
                : new EqualToAll { _random.Next(2) == 0 ? new EqualToAll { Next(depth - 1) } : Next(depth - 1) },
            _ => ToJsonEntry(depth),
        };
    }

    private List<object?> Children(int depth)
    {
        int count = _random.Next(6);
        var children = new List<object?>(count);
        for (int i = 0; i < count; i++)
        {
            children.Add(Next(depth - 1));
        }

        return children;
    }

    private List<int> Numbers() => Enumerable.Range(0, _random.Next(5)).Select(_ => _random.Next(-3, 7)).ToList();

    private Dictionary<string, object?> StringDictionary(int depth)
    {
        var dictionary = new Dictionary<string, object?>();
        int count = _random.Next(5);
        for (int i = 0; i < count; i++)
        {
            dictionary[PickKey()] = Next(depth - 1);
        }

        return dictionary;
    }

    private ExpandoObject Expando(int depth)
    {
        var expando = new ExpandoObject();
        foreach ((string key, object? value) in StringDictionary(depth))
        {
            ((IDictionary<string, object?>)expando)[key] = value;
        }

        return expando;
    }

    // A holder whose one member is declared as an interface (or object), holding a value of a runtime type that
    // implements it. The value is generated first, then a declared type it fits.
    private object Held(int depth)
    {
        object value = _random.Next(13) switch
        {
            0 => new List<object?>(Children(depth)),
            1 => Children(depth).ToArray(),
            2 => new HashSet<object?>(Children(depth)),
            3 => StringDictionary(depth),
            4 => Expando(depth),
            5 => new Bag(Children(depth)),
            6 => new ReadOnlyBag(Children(depth)),
            7 => new Queue<object?>(Children(depth)),
            8 => Children(depth).Select(v => v),
            9 => new Sneaky(),
            10 => new ReadOnlyDictionary<string, object?>(StringDictionary(depth)),
            11 => Numbers().ToLookup(n => n % 2),
            _ => new OldCollection(Children(depth)),
        };

        Type[] fitting = s_holderTypes.Where(t => t.IsInstanceOfType(value)).ToArray();
        Type declared = fitting[_random.Next(fitting.Length)];
        return Activator.CreateInstance(typeof(Holder<>).MakeGenericType(declared), value)!;
    }

    // The declared types of Holder's member.
    private static readonly Type[] s_holderTypes =
    [
        typeof(object),
        typeof(IEnumerable),
        typeof(IEnumerable<object?>),
        typeof(ICollection),
        typeof(ICollection<object?>),
        typeof(ICollection<KeyValuePair<string, object?>>),
        typeof(IReadOnlyCollection<object?>),
        typeof(IReadOnlyCollection<KeyValuePair<string, object?>>),
        typeof(IList),
        typeof(IList<object?>),
        typeof(IReadOnlyList<object?>),
        typeof(IDictionary),
        typeof(IDictionary<string, object?>),
        typeof(IReadOnlyDictionary<string, object?>),
        typeof(ILookup<int, int>),
        typeof(IEnumerable<IGrouping<int, int>>),
        typeof(IExploding),
    ];

    private object? Proxy(int depth)
    {
        object? target = _random.Next(5) switch
        {
            0 => new List<object?>(Children(depth)),
            1 => new HashSet<object?>(Children(depth)),
            2 => StringDictionary(depth),
            3 => new Holder<IEnumerable<object?>>(Children(depth)),
            _ => Next(depth - 1),
        };

        if (JsValue.FromObject(_engine, target) is not ObjectInstance wrapper)
        {
            return target;
        }

        return _engine.Invoke(_makeProxy, wrapper, _random.Next(4));
    }

    private object Cycle(int depth)
    {
        switch (_random.Next(4))
        {
            case 0:
                var list = new List<object?>(Children(depth));
                list.Insert(_random.Next(list.Count + 1), list);
                return list;
            case 1:
                var dictionary = StringDictionary(depth);
                dictionary[PickKey()] = dictionary;
                return dictionary;
            case 2:
                // Behind ICollection<KeyValuePair<..>> Jint reads no element of the dictionary, so no cycle is met.
                var inner = StringDictionary(depth);
                inner["self"] = inner;
                return new Holder<ICollection<KeyValuePair<string, object?>>>(inner);
            default:
                var node = new Node();
                node.Next = _random.Next(2) == 0 ? node : new Node { Next = node };
                return node;
        }
    }

    private JsonNode JsonNodeValue() => _random.Next(3) switch
    {
        0 => JsonValue.Create(_random.Next(10)),
        1 => new JsonArray(),
        _ => JsonNode.Parse("""{"a":[1,"x"],"b":null}""")!,
    };

    // A dictionary with a toJSON entry: a script function (called), a number (not callable) or a proxy over a plain
    // object (not callable, though Jint calls it).
    private Dictionary<string, object?> ToJsonEntry(int depth)
    {
        var dictionary = StringDictionary(depth);
        dictionary["toJSON"] = _random.Next(3) switch
        {
            0 => _engine.Evaluate("(function (key) { return 'toJSON of ' + key; })"),
            1 => 7,
            _ => _engine.Evaluate("new Proxy({}, {})"),
        };
        return dictionary;
    }

    private object? Primitive() => _random.Next(16) switch
    {
        0 => null,
        1 => _random.Next(2) == 0,
        2 => _random.Next(-1000, 1000),
        3 => s_doubles[_random.Next(s_doubles.Length)],
        4 or 5 => PickString(),
        6 => (DayOfWeek)_random.Next(7),
        7 => new DateTime(2026, 1, 1 + _random.Next(28), 0, 0, 0, DateTimeKind.Utc).AddSeconds(_random.Next(86400)),
        8 => new DateTimeOffset(2025, 6, 1, 12, 0, 0, TimeSpan.FromHours(_random.Next(-5, 5))),
        9 => (decimal)_random.Next(1000) / 8,
        10 => (char)('a' + _random.Next(26)),
        11 => _random.Next(2) == 0 ? (1L << 55) + _random.Next(10) : (long)_random.Next(),
        12 => new Guid(_random.Next(), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
        13 => Flags.B | (_random.Next(2) == 0 ? Flags.A : Flags.None),
        14 => _engine.Evaluate("(function () {})"),
        _ => (uint)_random.Next(),
    };

    private string? PickString() => s_strings[_random.Next(s_strings.Length)];

    private string PickKey() => Keys[_random.Next(Keys.Length)];

    [Flags]
    public enum Flags
    {
        None = 0,
        A = 1,
        B = 2,
    }

    public sealed class Holder<T>(T value)
    {
        public T Value { get; set; } = value;
    }

    public sealed record Point(int X, string? Name, object? Extra);

    public readonly record struct PointStruct(int Id, object? Payload);

    public sealed class Node
    {
        public Node? Next { get; set; }
    }

    // A custom collection with an indexer whose declared type is an interface.
    public sealed class Bag(List<object?> items) : ICollection<object?>
    {
        public int Count => items.Count;

        public bool IsReadOnly => true;

        public IEnumerable<object?> this[int index] => [items[index]];

        public void Add(object? item) => throw new NotSupportedException();

        public void Clear() => throw new NotSupportedException();

        public bool Contains(object? item) => items.Contains(item);

        public void CopyTo(object?[] array, int arrayIndex) => items.CopyTo(array, arrayIndex);

        public bool Remove(object? item) => throw new NotSupportedException();

        public IEnumerator<object?> GetEnumerator() => items.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }

    public sealed class ReadOnlyBag(List<object?> items) : IReadOnlyCollection<object?>
    {
        public int Count => items.Count;

        public string Label { get; } = "read-only";

        public IEnumerator<object?> GetEnumerator() => items.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }

    public sealed class Sequence(List<object?> items) : IEnumerable<object?>
    {
        public int Size => items.Count;

        public IEnumerator<object?> GetEnumerator() => items.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }

    public sealed class OldCollection(List<object?> items) : ICollection
    {
        public int Count => items.Count;

        public bool IsSynchronized => false;

        public object SyncRoot => items;

        public void CopyTo(Array array, int index) => ((ICollection)items).CopyTo(array, index);

        public IEnumerator GetEnumerator() => items.GetEnumerator();
    }

    // A sequence whose interface declares a getter that throws.
    public interface IExploding : IEnumerable<object?>
    {
        int Explodes { get; }
    }

    // A collection with a getter that throws: read only where Jint exposes it as IExploding, which is not a collection.
    public sealed class Sneaky : IExploding, IReadOnlyCollection<object?>
    {
        public int Count => 1;

        public int Explodes => throw new InvalidOperationException("a getter Jint did not read");

        public IEnumerator<object?> GetEnumerator() => Enumerable.Repeat<object?>(1, 1).GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }

    // A list equal to every list of its class: Jint's cycle check compares wrappers with Equals, ours by identity. A
    // list, so that SerializeToJson does not write it.
    public sealed class EqualToAll : List<object?>
    {
        public override bool Equals(object? obj) => obj is EqualToAll;

        public override int GetHashCode() => 1;
    }
}
