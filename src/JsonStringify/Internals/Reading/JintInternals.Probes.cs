using System.Collections;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Error;
using Jint.Native.Json;
using Jint.Native.Object;
using Jint.Native.Symbol;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// The probes: one per <see cref="JintAssumption"/>, each calling the accessors it rests on against objects of a
/// private engine and comparing what they say with what Jint's public API says. A probe returns false on any
/// disagreement; a member that is missing or changed throws at its first call (a MissingMemberException, say).
/// </summary>
internal static partial class JintInternals
{
    // The classes of the functions the argument probe found copying their arguments; set before its verdict is
    // published.
    private static Type[] s_copyingCallees = [];

    /// <summary>Runs the probe of one assumption; false (or an accessor failure) when it does not hold here.</summary>
    public static bool Probe(JintAssumption assumption) => assumption switch
    {
        JintAssumption.HiddenClasses => ProbeHiddenClasses(),
        JintAssumption.DenseArrays => ProbeDenseArrays(),
        JintAssumption.PropertyTables => ProbePropertyTables(),
        JintAssumption.InternalCall => ProbeInternalCall(),
        JintAssumption.CalleeCopiesArguments => ProbeCalleeCopiesArguments(),
        JintAssumption.IsArrayOperation => ProbeIsArrayOperation(),
        JintAssumption.RangeErrorIntrinsic => ProbeRangeErrorIntrinsic(),
        JintAssumption.EngineOptions => ProbeEngineOptions(),
        JintAssumption.EvaluationState => ProbeEvaluationState(),
        JintAssumption.ProxyTarget => ProbeProxyTarget(),
        JintAssumption.OwnPropertyProbe => ProbeOwnPropertyProbe(),
        _ => throw new ArgumentOutOfRangeException(nameof(assumption), assumption, "one assumption at a time"),
    };

    // Compiles the table reader where code can be compiled, and keeps it for ReadTable once it agrees with the public
    // GetOwnProperties on the probe tables.
    [UnconditionalSuppressMessage(
        "Trimming",
        "IL2026:RequiresUnreferencedCode",
        Justification = "A member of Jint's that trimming removed makes the compile throw, or the probe reject its reader.")]
    private static bool ProbePropertyTables()
    {
        if (!RuntimeFeature.IsDynamicCodeCompiled)
        {
            throw new NotSupportedException("code cannot be compiled at run time here (NativeAOT)");
        }

        TableReader reader;
        try
        {
            reader = CompileTableReader();
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or MemberAccessException)
        {
            throw new NotSupportedException($"the property table's members are not the ones the reader is compiled for ({e.Message})", e);
        }

        if (!ProbeTableReader(reader))
        {
            return false;
        }

        s_tableReader = reader;
        return true;
    }

    // A sloppy and a strict function's arguments object (the sloppy one mapped to its parameters), read at once or only
    // later by an arrow function or eval (Jint makes it then, from the list it was handed), parameters captured by a
    // closure, a bound function and a proxy's apply trap must keep the values they were called with after the list is
    // refilled, called through the public Engine.Call and, where it holds, through the internal call.
    private static bool ProbeCalleeCopiesArguments()
    {
        using var engine = new Engine();
        var callees = (JsArray)engine.Evaluate("""
            [
              function () { var a = arguments; return () => [a[0], a[1]]; },
              function () { 'use strict'; var a = arguments; return () => [a[0], a[1]]; },
              function (k, v) { var a = arguments; return () => [a[0], a[1], k, v]; },
              function (k, v) { return () => [k, v]; },
              function (k, v) { return () => [arguments[0], arguments[1]]; },
              function () { 'use strict'; return () => [arguments[0], arguments[1]]; },
              function () { return () => eval('[arguments[0], arguments[1]]'); },
              (function () { var a = arguments; return () => [a[0], a[1]]; }).bind(null),
              new Proxy(function () {}, { apply(target, self, list) { return () => [list[0], list[1]]; } }),
            ]
            """);
        var lanes = new List<Func<JsValue, JsValue[], JsValue>> { (callee, list) => engine.Call(callee, JsValue.Undefined, list) };
        if (FastPath.Holds(JintAssumption.InternalCall))
        {
            lanes.Add((callee, list) => Call(engine, callee, JsValue.Undefined, list));
        }

        foreach (Func<JsValue, JsValue[], JsValue> lane in lanes)
        {
            for (uint i = 0; i < callees.Length; i++)
            {
                if (!KeepsItsArguments(engine, callees[i], lane))
                {
                    return false;
                }
            }
        }

        s_copyingCallees = [.. Enumerable.Range(0, (int)callees.Length).Select(i => callees[(uint)i].GetType()).Distinct()];
        return true;
    }

    /// <summary>
    /// Whether <paramref name="callable"/> is of a class the argument probe called and found copying what it keeps
    /// (script, arrow and bound functions, proxies): only calls to these may reuse an argument list. A host function
    /// (a ClrFunction) is handed the list itself and may keep it. Only once CalleeCopiesArguments holds.
    /// </summary>
    public static bool CopiesArguments(JsValue callable)
    {
        Type type = callable.GetType();
        foreach (Type copying in s_copyingCallees)
        {
            if (type == copying)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Whether <paramref name="callee"/>, called through <paramref name="call"/> with a list that is refilled
    /// afterwards, returns a function that still sees what it was called with (each value it lists is "key" or
    /// "value").
    /// </summary>
    internal static bool KeepsItsArguments(Engine engine, JsValue callee, Func<JsValue, JsValue[], JsValue> call)
    {
        JsValue[] list = [new JsString("key"), new JsString("value")];
        JsValue snapshot = call(callee, list);
        list[0] = new JsString("refilled");
        list[1] = new JsString("refilled");
        if (engine.Call(snapshot, JsValue.Undefined, []) is not JsArray seen || seen.Length == 0)
        {
            return false;
        }

        for (uint i = 0; i < seen.Length; i++)
        {
            if (seen[i].ToString() != (i % 2 == 0 ? "key" : "value"))
            {
                return false;
            }
        }

        return true;
    }


    // Tables small (a list) and large (a hash table, one whose slots wrapped around), with deleted, re-added,
    // integer-like, non-enumerable and accessor keys and a non-enumerable toJSON: the reader must list the enumerable
    // ones of what the public GetOwnProperties lists, in the same order, with the same descriptors, from any start and
    // when the array is too short; and note the kinds of all the names.
    private static bool ProbeTableReader(TableReader reader)
    {
        // Built with the JSON parser and the public property operations, as the scripts `delete small.b`,
        // `Object.defineProperty(small, ...)`, `large['k' + i] = i` and so on would: a probe script would cost a new
        // process the compiling of Jint's interpreter.
        using var engine = new Engine();
        var parser = new JsonParser(engine);
        var small = (JsObject)parser.Parse("""{"a": 1, "b": "x", "c": null}""");
        small.Delete("b");
        small.Set("d", 2);
        small.Set("b", 3);
        small.DefineOwnProperty("hidden", new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
        small.DefineOwnProperty(JsonConstants.ToJsonName, new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
        var getter = new ClrFunction(engine, "get", (_, _) => 1);
        small.DefineOwnProperty("getter", new GetSetPropertyDescriptor(getter, JsValue.Undefined, enumerable: true, configurable: false));

        var large = (JsObject)parser.Parse("{}");
        for (int i = 0; i < 40; i++)
        {
            large.Set("k" + i, i);
        }

        for (int i = 0; i < 40; i += 3)
        {
            large.Delete("k" + i);
        }

        large.Set("7", "seven");
        large.Set("01", "x");
        large.Set("k0", "back");
        large.Set(GlobalSymbolRegistry.Iterator, 1);

        var emptied = (JsObject)parser.Parse("""{"a": 1}""");
        emptied.Delete("a");

        // Slots freed at the start of the ring and taken again after its end: the ring wraps around.
        var ring = (JsObject)parser.Parse("{}");
        for (int i = 0; i < 12; i++)
        {
            ring.Set("k" + i, i);
        }

        foreach (string key in (string[])["k0", "k1", "k2"])
        {
            ring.Delete(key);
        }

        foreach (string key in (string[])["x", "y", "z", "w", "v"])
        {
            ring.Set(key, 1);
        }

        ring.Delete("k5");
        foreach (JsObject o in (JsObject[])[small, large, emptied, ring])
        {
            object? table = PropertyTable(o);
            if (GetShape(o) is not null || table is null)
            {
                return false;
            }

            var keys = o.GetOwnProperties().Where(p => p.Key.Type == Types.String).ToList();
            var expected = keys.Where(p => p.Value.Enumerable).ToList();
            TableNameKinds expectedKinds = TableNameKinds.None;
            foreach (KeyValuePair<JsValue, PropertyDescriptor> key in keys)
            {
                expectedKinds |= TableEntry.KindOf(key.Key.ToString());
            }

            // Read from the second entry on, as onto a stack that holds one already, and into an array too short.
            var entries = new TableEntry[expected.Count + 1];
            if (reader(table, entries, 1, out TableNameKinds kinds) != expected.Count || kinds != expectedKinds
                || (expected.Count > 1 && reader(table, new TableEntry[1], 0, out _) != expected.Count))
            {
                return false;
            }

            for (int i = 0; i < expected.Count; i++)
            {
                if (entries[i + 1].Name != expected[i].Key.ToString() || !ReferenceEquals(entries[i + 1].Descriptor, expected[i].Value))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private static bool ProbeEngineOptions()
    {
        var options = new Options();
        using var engine = new Engine(options);
        return ReferenceEquals(OptionsOf(engine), options);
    }

    // A script function, an arrow function and a native one, called through the accessor, must return what the public
    // Engine.Call returns, see the same this and arguments, and let a thrown value through.
    private static bool ProbeInternalCall()
    {
        using var engine = new Engine();
        JsValue function = engine.Evaluate("(function (a, b) { return [this === undefined ? 'u' : this.t, a, b, arguments.length].join(); })");
        JsValue arrow = engine.Evaluate("(a) => a + 1");
        JsValue native = engine.Evaluate("Math.max");
        JsValue thrower = engine.Evaluate("(function () { throw 'probe'; })");
        JsValue self = engine.Evaluate("({t: 'T'})");
        JsValue proxy = engine.Evaluate("new Proxy(function (a) { return a * 2; }, {})");
        JsValue[] args = [JsNumber.Create(1), new JsString("x")];
        bool agrees =
            Call(engine, function, self, args).ToString() == engine.Call(function, self, args).ToString()
            && Call(engine, function, self, args).ToString() == "T,1,x,2"
            && EngineCall(engine, function, self, args, null).ToString() == "T,1,x,2"
            && Call(engine, arrow, JsValue.Undefined, [JsNumber.Create(41)]).AsNumber() == 42
            && Call(engine, native, JsValue.Undefined, [JsNumber.Create(3), JsNumber.Create(9)]).AsNumber() == 9
            && Call(engine, proxy, JsValue.Undefined, [JsNumber.Create(21)]).AsNumber() == 42;
        foreach (JsValue callable in (JsValue[])[thrower, engine.Evaluate("new Proxy(function () { throw 'probe'; }, {})")])
        {
            try
            {
                Call(engine, callable, JsValue.Undefined, []);
                return false;
            }
            catch (JavaScriptException e) when (e.Error.ToString() == "probe")
            {
            }
        }

        return agrees;
    }

    // Arrays, Array.prototype, proxies of arrays (nested too) and of other objects must answer as the spec says, after
    // a script replaced Array.isArray, and a revoked proxy must throw a TypeError.
    private static bool ProbeIsArrayOperation()
    {
        using var engine = new Engine();
        engine.Execute("var r = Proxy.revocable([], {}); r.revoke(); Array.isArray = function () { return true; };");
        foreach (string array in (string[])["[]", "Array.prototype", "new Proxy([], {})", "new Proxy(new Proxy([1], {}), {})"])
        {
            if (!IsArrayOperation((ObjectInstance)engine.Evaluate(array)))
            {
                return false;
            }
        }

        foreach (string other in (string[])["({length: 0})", "new Proxy({}, {})", "new Proxy(new Proxy(function () {}, {}), {})", "Object.create([])"])
        {
            if (IsArrayOperation((ObjectInstance)engine.Evaluate(other)))
            {
                return false;
            }
        }

        try
        {
            IsArrayOperation((ObjectInstance)engine.Evaluate("r.proxy"));
            return false;
        }
        catch (JavaScriptException e) when (e.Error is ObjectInstance error && ReferenceEquals(error.Prototype, engine.Intrinsics.TypeError.Get("prototype")))
        {
            return true;
        }
    }

    // The accessor must give the constructor that the untouched global RangeError holds, still after a script replaced
    // the binding, and the errors it makes must be RangeErrors.
    private static bool ProbeRangeErrorIntrinsic()
    {
        using var engine = new Engine();
        JsValue global = engine.GetValue("RangeError");
        engine.Execute("RangeError = SyntaxError;");
        ErrorConstructor intrinsic = RangeErrorOf(engine.Intrinsics);
        ObjectInstance error = intrinsic.Construct("probe");
        return ReferenceEquals(intrinsic, global)
            && error.Get("name").ToString() == "RangeError"
            && error.Get("message").ToString() == "probe"
            && ReferenceEquals(error.Prototype, global.Get("prototype"));
    }

    // The flag must be false while the engine is idle, and true inside a host function that a script called and inside
    // one that the host called through the public Engine.Call, and false again afterwards.
    private static bool ProbeEvaluationState()
    {
        using var engine = new Engine();
        bool idle = !EvaluationInProgress(engine);
        bool fromScript = false;
        bool fromHost = false;
        engine.SetValue("probe", new ClrFunction(engine, "probe", (_, _) =>
        {
            fromScript = EvaluationInProgress(engine);
            return JsValue.Undefined;
        }));
        engine.Execute("probe()");
        engine.Call(new ClrFunction(engine, "probe", (_, _) =>
        {
            fromHost = EvaluationInProgress(engine);
            return JsValue.Undefined;
        }), JsValue.Undefined, []);
        return idle && fromScript && fromHost && !EvaluationInProgress(engine);
    }

    // Every hidden-class accessor is called on probes and must agree with the public API: keys, slot values, lazy
    // slots, objects that never had a property, the shape going on deopt, and integer-like keys refused.
    private static bool ProbeHiddenClasses()
    {
        // The probe objects come from the JSON parser and the public property operations, not from scripts, which would
        // cost a new process the compiling of Jint's interpreter.
        using var engine = new Engine();
        var parser = new JsonParser(engine);
        var first = (JsObject)parser.Parse("""{"a": 1, "b": "two", "c": {"d": true}, "e": null, "f": 5.5}""");
        var second = (JsObject)parser.Parse("""{"a": 2, "b": "x", "c": {}, "e": 1, "f": 0}""");
        object? shape = GetShape(first);
        if (shape is null
            || engine.Advanced.GetObjectRepresentation(first) != ObjectRepresentation.HiddenClass
            || !ReferenceEquals(shape, GetShape(second))
            || !ShapeKeyStrings(shape, out JsValue[]? keys)
            || keys is null)
        {
            return false;
        }

        List<JsValue> publicKeys = first.GetOwnPropertyKeys(Types.String);
        if (ShapeSlotCount(shape) != publicKeys.Count || keys.Length != publicKeys.Count)
        {
            return false;
        }

        for (int i = 0; i < keys.Length; i++)
        {
            if (!keys[i].Equals(publicKeys[i]) || !ReferenceEquals(RawSlot(first, i), first.Get(keys[i])))
            {
                return false;
            }
        }

        // A lazy slot reads as a placeholder until [[Get]] runs its factory, then as the value.
        int factoryCalls = 0;
        JsObjectLayout lazyLayout = JsObjectLayout.CreateBuilder()
            .Add("a")
            .AddLazy("b", (_, _) =>
            {
                factoryCalls++;
                return new JsString("made");
            })
            .Build();
        JsObject lazy = JsObject.Create(engine, lazyLayout, [JsNumber.Create(1), null]);
        if (RawSlot(lazy, 1).Type != Types.Empty
            || factoryCalls != 0
            || lazy.Get("b").ToString() != "made"
            || factoryCalls != 1
            || RawSlot(lazy, 1).ToString() != "made"
            || RawSlot(lazy, 0).Type == Types.Empty)
        {
            return false;
        }

        var empty = (JsObject)parser.Parse("{}");
        if (!IsVirgin(empty) || IsVirgin(first) || empty.GetOwnPropertyKeys().Count != 0)
        {
            return false;
        }

        var deopted = (JsObject)parser.Parse("""{"a": 1, "b": 2}""");
        deopted.Delete("a");
        var integerLike = (JsObject)parser.Parse("""{"1": "x", "a": 2}""");
        object? integerShape = GetShape(integerLike);
        if (GetShape(deopted) is not null
            || IsVirgin(deopted)
            || engine.Advanced.GetObjectRepresentation(deopted) == ObjectRepresentation.HiddenClass
            || (integerShape is not null && ShapeKeyStrings(integerShape, out _)))
        {
            return false;
        }

        return true;
    }

    // Dense element storage must hold what the public reads give, and an array's property table must appear with its
    // first own property other than its elements, a toJSON (data or accessor) among them.
    private static bool ProbeDenseArrays()
    {
        using var engine = new Engine();
        var parser = new JsonParser(engine);
        var array = (JsArray)parser.Parse("""[1, "x", null, {}]""");
        JsValue?[]? dense = Dense(array);
        if (dense is null || dense.Length < array.Length || PropertyTable(array) is not null)
        {
            return false;
        }

        // An own toJSON, as data or accessor, must show in the table; so must any other named property.
        var withData = (JsArray)parser.Parse("[1]");
        withData.Set("toJSON", 1);
        var withAccessor = (JsArray)parser.Parse("[2]");
        var getter = new ClrFunction(engine, "get", (_, _) => 1);
        withAccessor.DefineOwnProperty("toJSON", new GetSetPropertyDescriptor(getter, JsValue.Undefined, enumerable: false, configurable: false));
        var named = (JsArray)parser.Parse("[]");
        named.Set("x", 2);
        foreach (JsArray withTable in (JsArray[])[withData, withAccessor, named])
        {
            if (PropertyTable(withTable) is null)
            {
                return false;
            }
        }

        for (uint i = 0; i < array.Length; i++)
        {
            if (!array.TryGetValue(i, out JsValue element) || !ReferenceEquals(element, dense[i]))
            {
                return false;
            }
        }

        return true;
    }

    // Proxies made through the public API, over a wrapped CLR collection and over another proxy, must give back the
    // objects they were made over, and a revoked one null. The collection is not generic: under NativeAOT, Jint 4.16.0
    // and 4.16.1 cannot wrap a List<int> (its wrapper is a generic type made at run time).
    private static bool ProbeProxyTarget()
    {
        using var engine = new Engine();
        var wrapper = (ObjectInstance)JsValue.FromObject(engine, new ArrayList { 1 });
        var handler = new ForwardingHandler();
        ObjectInstance inner = engine.Advanced.CreateProxy(wrapper, handler);
        ObjectInstance outer = engine.Advanced.CreateProxy(inner, handler);
        var plain = new JsObject(engine);
        RevocableProxy revocable = engine.Advanced.CreateRevocableProxy(plain, handler);
        bool live = ReferenceEquals(ProxyTargetField(revocable.Proxy), plain);
        revocable.Revoke();
        Type proxy = EngineTypes.Instance.Proxy;
        return inner.GetType() == proxy
            && outer.GetType() == proxy
            && ReferenceEquals(ProxyTargetField(inner), wrapper)
            && ReferenceEquals(ProxyTargetField(outer), inner)
            && live
            && ProxyTargetField(revocable.Proxy) is null;
    }

    // A handler with no traps: every operation goes to the target.
    private sealed class ForwardingHandler : ProxyHandler;

    // On a wrapped dictionary, a wrapped CLR object, a plain object, an array and a proxy (whose trap must run once per
    // probe), the probe must answer what GetOwnProperty says, for present, non-enumerable and missing keys.
    private static bool ProbeOwnPropertyProbe()
    {
        using var engine = new Engine();
        var parser = new JsonParser(engine);
        var plain = (JsObject)parser.Parse("""{"a": 1}""");
        plain.DefineOwnProperty("hidden", new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
        var array = (JsArray)parser.Parse("[1]");
        var dictionary = (ObjectInstance)JsValue.FromObject(engine, new Dictionary<string, object> { ["a"] = 1 });
        var clr = (ObjectInstance)JsValue.FromObject(engine, new KeyValuePair<string, int>("k", 1));
        var trap = new CountingHandler();
        ObjectInstance proxy = engine.Advanced.CreateProxy(plain, trap);
        foreach (ObjectInstance o in (ObjectInstance[])[plain, array, dictionary, clr, proxy])
        {
            foreach (string name in (string[])["a", "hidden", "0", "length", "Key", "missing"])
            {
                var key = new JsString(name);
                int trapsBefore = trap.Calls;
                OwnPropertyProbe probe = ProbeOwn(o, key);
                int trapCalls = trap.Calls - trapsBefore;
                PropertyDescriptor descriptor = o.GetOwnProperty(key);
                OwnPropertyProbe expected = descriptor == PropertyDescriptor.Undefined
                    ? OwnPropertyProbe.Missing
                    : descriptor.Enumerable ? OwnPropertyProbe.Enumerable : OwnPropertyProbe.NonEnumerable;
                if (probe != expected || trapCalls != (ReferenceEquals(o, proxy) ? 1 : 0))
                {
                    return false;
                }
            }
        }

        return trap.Calls == 12;
    }

    // Counts getOwnPropertyDescriptor traps and forwards them.
    private sealed class CountingHandler : ProxyHandler
    {
        public int Calls { get; private set; }

        public override PropertyDescriptor? GetOwnPropertyDescriptor(ObjectInstance target, JsValue property)
        {
            Calls++;
            return null;
        }
    }
}
