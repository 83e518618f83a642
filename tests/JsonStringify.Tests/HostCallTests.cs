using System.Buffers;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime.Interop;

namespace JsonStringify.Tests;

/// <summary>
/// One call is one unit of work for the engine: its constraints (timeout, memory, statements) count from the start of
/// a host call whatever the walk calls on the way, a call made from a script is part of that script's work, and one
/// thread at a time may be inside. Work is counted, never timed.
/// </summary>
public class HostCallTests
{
    public enum Overload
    {
        ToString,
        JsValue,
        BufferWriter,
        Stream,
        StreamAsync,
        TextWriter,
        InstalledStringify,
    }

    // Values (and replacers and spaces) whose call runs user code: each run of it calls tick(). The last rows have no
    // object but the space, a Number or String object whose valueOf or toString JSON.stringify calls.
    private static readonly (string Name, string Value, string Replacer, string Expected, string Space)[] s_userCode =
    [
        ("toJSON", "Array.from({length: 40}, (_, i) => ({i: i, toJSON() { tick(); return this.i; }}))", "undefined",
            "[" + string.Join(',', Enumerable.Range(0, 40)) + "]", "undefined"),
        ("replacer function", "[1, {a: 2}, [3]]", "(function (k, v) { tick(); return v; })", "[1,{\"a\":2},[3]]", "undefined"),
        ("proxied arrays", "Array.from({length: 20}, (_, i) => new Proxy([i], {get(t, k, r) { if (k === 'length') { tick(); } return Reflect.get(t, k, r); }}))", "undefined",
            "[" + string.Join(',', Enumerable.Range(0, 20).Select(i => $"[{i}]")) + "]", "undefined"),
        ("proxied objects", "Array.from({length: 20}, (_, i) => new Proxy({i: i}, {ownKeys(t) { tick(); return Reflect.ownKeys(t); }}))", "undefined",
            "[" + string.Join(',', Enumerable.Range(0, 20).Select(i => $"{{\"i\":{i}}}")) + "]", "undefined"),
        ("getters", "Array.from({length: 20}, (_, i) => ({get i() { tick(); return i; }}))", "undefined",
            "[" + string.Join(',', Enumerable.Range(0, 20).Select(i => $"{{\"i\":{i}}}")) + "]", "undefined"),
        ("BigInt toJSON", "BigInt.prototype.toJSON = function () { tick(); return String(this); }; [1n, 2n, 3n]", "undefined", "[\"1\",\"2\",\"3\"]", "undefined"),
        ("nested JSON.stringify", "Array.from({length: 10}, (_, i) => ({toJSON() { tick(); return JSON.stringify([i, {toJSON() { tick(); return i; }}]); }}))", "undefined",
            "[" + string.Join(',', Enumerable.Range(0, 10).Select(i => $"\"[{i},{i}]\"")) + "]", "undefined"),
        ("proxied replacer list", "({a: 1, b: 2})", "new Proxy(['a'], {get(t, k, r) { tick(); return Reflect.get(t, k, r); }})", "{\"a\":1}", "undefined"),
        ("Number object as space", "1", "undefined", "1",
            "(function () { var n = new Number(0); n.valueOf = function () { tick(); return 2; }; return n; })()"),
        ("String object as space", "'s'", "undefined", "\"s\"",
            "(function () { var s = new String(''); s.toString = function () { tick(); return '  '; }; return s; })()"),
    ];

    public static TheoryData<string, Overload> UserCodeRows
    {
        get
        {
            var rows = new TheoryData<string, Overload>();
            foreach (var row in s_userCode)
            {
                foreach (Overload overload in Enum.GetValues<Overload>())
                {
                    rows.Add(row.Name, overload);
                }
            }

            return rows;
        }
    }

    // The constraints are reset, if at all, before the walk runs any user code or after it ran the last: never between,
    // where a reset would give the rest of the walk a fresh budget.
    [Theory]
    [MemberData(nameof(UserCodeRows))]
    public void AHostCallIsOneUnitOfWork(string name, Overload overload)
    {
        var (_, valueScript, replacerScript, expected, spaceScript) = s_userCode.Single(row => row.Name == name);
        var log = new ResetLog();
        using Engine engine = EngineWith(log);
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(valueScript);
        JsValue replacer = engine.Evaluate(replacerScript);
        JsValue space = engine.Evaluate(spaceScript);
        log.Start();

        Assert.Equal(expected, Serialize(engine, serializer, overload, value, replacer, space));
        Assert.True(log.Ticks > 0, "the walk ran no user code");
        Assert.True(log.ResetsAt.All(at => at == 0 || at == log.Ticks), $"reset at ticks {string.Join(", ", log.ResetsAt)} of {log.Ticks}");

        // The budget starts with the call: the engine was idle, so it was reset before the walk began.
        Assert.Contains(0, log.ResetsAt);
    }

    // A host function that a script calls, and the installed JSON.stringify, are part of the script's work: the
    // constraints are reset by the script's own entry and exit, and never during it, however often it serializes.
    [Fact]
    public void ACallFromAScriptIsPartOfTheScriptsWork()
    {
        var log = new ResetLog();
        using Engine engine = EngineWith(log);
        var serializer = new JsonSerializer(engine);
        engine.SetValue("hostSerialize", new ClrFunction(engine, "hostSerialize", (_, args) => serializer.Serialize(args[0])));
        engine.Execute("var value = Array.from({length: 10}, (_, i) => ({toJSON() { tick(); return new Proxy([i], {}); }}));");
        log.Start();

        string result = engine.Evaluate("""
            var out = [];
            for (var i = 0; i < 5; i++) { out.push(hostSerialize(value), JSON.stringify(value)); }
            out.join('|')
            """).ToString();

        Assert.Equal(string.Join('|', Enumerable.Repeat("[[0],[1],[2],[3],[4],[5],[6],[7],[8],[9]]", 10)), result);
        Assert.Equal(100, log.Ticks);
        Assert.Equal([0, 100], log.ResetsAt);
    }

    // A budget counted in constraint checks stands for the timeout: from the host, a walk that calls user code all the
    // way (toJSON, proxies) stops once the budget is spent instead of having it renewed by every call it makes (with
    // renewals, each call would spend a few checks of a fresh budget, and the walk would run to its end).
    [Theory]
    [InlineData("Array.from({length: 20000}, () => ({toJSON() { n++; return 1; }}))")]
    [InlineData("Array.from({length: 20000}, () => new Proxy([1], {get(t, k, r) { if (k === 'length') { n++; } return Reflect.get(t, k, r); }}))")]
    public void ABudgetSpentMidWalkStopsIt(string valueScript)
    {
        const int Budget = 100;
        var budget = new CheckBudget(Budget);
        using Engine engine = Js.Ours(o => o.Constraint(budget));
        engine.Execute("var n = 0;");
        JsValue value = engine.Evaluate(valueScript);
        var serializer = new JsonSerializer(engine);

        budget.Armed = true;
        Assert.Throws<BudgetSpentException>(() => serializer.SerializeToString(value));
        budget.Armed = false;

        // A constraint of our own is checked before every statement a script runs, n++ among them.
        double ran = engine.Evaluate("n").AsNumber();
        Assert.InRange(ran, 1, Budget);
    }

    // Two threads, one engine: while a call is in progress (paused inside a toJSON until the other thread has tried),
    // every entry point refuses the other thread at once, and lets it in once the call is over.
    [Fact]
    public void ASecondThreadIsRefusedWhileACallIsInProgress()
    {
        using Engine engine = Js.Ours();
        var serializer = new JsonSerializer(engine);
        using var inside = new ManualResetEventSlim();
        using var tried = new ManualResetEventSlim();
        engine.SetValue("pause", new ClrFunction(engine, "pause", (_, _) =>
        {
            inside.Set();
            tried.Wait();
            return JsValue.Undefined;
        }));
        JsValue slow = engine.Evaluate("[1, {toJSON() { pause(); return 2; }}, 3]");
        JsValue other = engine.Evaluate("({b: [true]})");
        JsValue stringify = engine.Evaluate("JSON.stringify");
        Func<object?>[] attempts =
        [
            () => serializer.SerializeToString(other),
            () => serializer.Serialize(other),
            () => serializer.Serialize(other, new ArrayBufferWriter<byte>()),
            () => serializer.Serialize(other, Stream.Null),
            () => serializer.Serialize(other, TextWriter.Null),
            () => serializer.SerializeAsync(other, Stream.Null).GetAwaiter().GetResult(),
            () => new JsonSerializer(engine).SerializeToString(other),
            () => engine.Call(stringify, other),
        ];
        var failures = new Exception?[attempts.Length];
        var second = new Thread(() =>
        {
            inside.Wait();
            for (int i = 0; i < attempts.Length; i++)
            {
                try
                {
                    attempts[i]();
                }
                catch (Exception e)
                {
                    failures[i] = e;
                }
            }

            tried.Set();
        });
        second.Start();

        string? first = serializer.SerializeToString(slow);
        second.Join();

        Assert.Equal("[1,2,3]", first);
        Assert.All(failures, e => Assert.Contains("in progress on another thread", Assert.IsType<InvalidOperationException>(e).Message));

        // Once the call is over, any thread may make the next.
        string? later = null;
        var third = new Thread(() => later = serializer.SerializeToString(other));
        third.Start();
        third.Join();
        Assert.Equal("{\"b\":[true]}", later);
    }

    // Two threads that call one serializer at once, on values whose toJSON runs script: each call gives the right text
    // or is refused as a call in progress on another thread, and nothing else; none hangs or returns a mix. Once both
    // are done, the gate is free: each thread's value serializes from a thread of its own.
    [Fact]
    public void ConcurrentCallsGiveTheRightTextOrARefusal()
    {
        const int Calls = 1000;
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue[] values =
        [
            engine.Evaluate("({t: Array.from({length: 8}, (_, i) => ({toJSON() { return [i, String(i)]; }}))})"),
            engine.Evaluate("({u: Array.from({length: 8}, (_, i) => ({toJSON() { return {k: i}; }}))})"),
        ];
        string[] expected = values.Select(v => new Jint.Native.Json.JsonSerializer(engine).Serialize(v).ToString()).ToArray();
        int right = 0;
        int wrong = 0;
        int refused = 0;
        var unexpected = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
        using var start = new Barrier(2);
        Thread[] threads = Enumerable.Range(0, 2).Select(t => new Thread(() =>
        {
            start.SignalAndWait();
            for (int i = 0; i < Calls; i++)
            {
                try
                {
                    Interlocked.Increment(ref serializer.SerializeToString(values[t]) == expected[t] ? ref right : ref wrong);
                }
                catch (InvalidOperationException e) when (e.Message.Contains("in progress on another thread", StringComparison.Ordinal))
                {
                    Interlocked.Increment(ref refused);
                }
                catch (Exception e)
                {
                    unexpected.Enqueue(e);
                }
            }
        })).ToArray();
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        Assert.Empty(unexpected);
        Assert.Equal(0, wrong);
        Assert.Equal(2 * Calls, right + refused);
        Assert.True(right >= 1, "some call got through");

        for (int t = 0; t < values.Length; t++)
        {
            JsValue value = values[t];
            string? after = null;
            Exception? failure = null;
            var thread = new Thread(() =>
            {
                try
                {
                    after = serializer.SerializeToString(value);
                }
                catch (Exception e)
                {
                    failure = e;
                }
            });
            thread.Start();
            thread.Join();
            Assert.Null(failure);
            Assert.Equal(expected[t], after);
        }
    }

    // The thread inside may come in again: a host function called by a toJSON serializes through every overload, the
    // asynchronous one included, which then walks on the calling thread.
    [Fact]
    public void TheThreadInsideMayComeInAgain()
    {
        using Engine engine = Js.Ours();
        var serializer = new JsonSerializer(engine);
        engine.SetValue("nested", new ClrFunction(engine, "nested", (_, args) =>
        {
            using var stream = new MemoryStream();
            Assert.True(serializer.SerializeAsync(args[0], stream).GetAwaiter().GetResult());
            var writer = new ArrayBufferWriter<byte>();
            Assert.True(serializer.Serialize(args[0], writer));
            return Encoding.UTF8.GetString(stream.ToArray()) + Encoding.UTF8.GetString(writer.WrittenSpan) + serializer.SerializeToString(args[0]);
        }));
        JsValue value = engine.Evaluate("[{toJSON() { return nested({a: [1, {toJSON() { return JSON.stringify('x'); }}]}); }}]");

        Assert.Equal("[\"{\\\"a\\\":[1,\\\"\\\\\\\"x\\\\\\\"\\\"]}{\\\"a\\\":[1,\\\"\\\\\\\"x\\\\\\\"\\\"]}{\\\"a\\\":[1,\\\"\\\\\\\"x\\\\\\\"\\\"]}\"]", serializer.SerializeToString(value));
    }

    private static Engine EngineWith(ResetLog log)
    {
        Engine engine = Js.Ours(o => o.Constraint(log));
        engine.SetValue("tick", new ClrFunction(engine, "tick", (_, _) =>
        {
            log.Ticks++;
            return JsValue.Undefined;
        }));
        return engine;
    }

    private static string? Serialize(Engine engine, JsonSerializer serializer, Overload overload, JsValue value, JsValue replacer, JsValue space)
    {
        switch (overload)
        {
            case Overload.ToString:
                return serializer.SerializeToString(value, replacer, space);
            case Overload.JsValue:
                return serializer.Serialize(value, replacer, space).ToString();
            case Overload.BufferWriter:
                var writer = new ArrayBufferWriter<byte>();
                Assert.True(serializer.Serialize(value, replacer, space, writer));
                return Encoding.UTF8.GetString(writer.WrittenSpan);
            case Overload.Stream:
            case Overload.StreamAsync:
                using (var stream = new MemoryStream())
                {
                    Assert.True(overload == Overload.Stream
                        ? serializer.Serialize(value, replacer, space, stream)
                        : serializer.SerializeAsync(value, replacer, space, stream).GetAwaiter().GetResult());
                    return Encoding.UTF8.GetString(stream.ToArray());
                }

            case Overload.TextWriter:
                using (var text = new StringWriter())
                {
                    Assert.True(serializer.Serialize(value, replacer, space, text));
                    return text.ToString();
                }

            default:
                return engine.Call(engine.Evaluate("JSON.stringify"), value, replacer, space).ToString();
        }
    }

    // Notes how much user code (calls of tick) had run each time the engine reset its constraints.
    private sealed class ResetLog : Constraint
    {
        public int Ticks { get; set; }

        public List<int> ResetsAt { get; } = [];

        public void Start()
        {
            Ticks = 0;
            ResetsAt.Clear();
        }

        public override void Check()
        {
        }

        public override void Reset() => ResetsAt.Add(Ticks);
    }

    // Once armed, allows so many checks from each reset, then throws on every check.
    private sealed class CheckBudget(int budget) : Constraint
    {
        private int _left;

        public bool Armed { get; set; }

        public override void Check()
        {
            if (Armed && --_left < 0)
            {
                throw new BudgetSpentException();
            }
        }

        public override void Reset() => _left = budget;
    }

    private sealed class BudgetSpentException : Exception
    {
    }
}
