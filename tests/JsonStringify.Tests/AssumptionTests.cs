using System.Diagnostics.Tracing;
using Jint;
using Jint.Native;
using Jint.Runtime.Interop;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The fast path's assumptions about Jint, broken one at a time: the parts that rest on the broken one go through the
/// public API, the rest stay on, and the output is exact; and the probes and their verdicts catch a broken assumption.
/// </summary>
public class AssumptionTests
{
    // By name: the enum is internal, and theory parameters are public.
    public static TheoryData<string> Assumptions => [.. FastPath.Assumptions.ToArray().Select(a => a.ToString())];

    // Every conformance row, with this one assumption off.
    [Theory]
    [MemberData(nameof(Assumptions))]
    public void ConformanceRowsAreExactWithAnAssumptionOff(string name)
    {
        JintAssumption assumption = Enum.Parse<JintAssumption>(name);
        JsonSerializerOptions options = Without(assumption);
        foreach (object[] row in ConformanceTests.Cases)
        {
            string script = (string)row[0];
            string expected = ConformanceTests.ExpectedOnThisRelease(script, (string)row[1]);
            using Engine engine = Js.Ours(serializerOptions: options);
            string actual = Js.Run(engine, script);
            if (expected is "TypeError" or "RangeError")
            {
                Assert.StartsWith(expected + ":", actual, StringComparison.Ordinal);
            }
            else
            {
                Assert.True(expected == actual, $"{assumption} off\nscript:   {script}\nexpected: {expected}\nactual:   {actual}");
            }
        }
    }

    // The rows where user code changes what the fast path would read, and the corpus parsed and built in script, each
    // against the public reader.
    [Theory]
    [MemberData(nameof(Assumptions))]
    public void ObservableRowsAndTheCorpusAreExactWithAnAssumptionOff(string name)
    {
        JsonSerializerOptions options = Without(Enum.Parse<JintAssumption>(name));
        var publicOnly = new JsonSerializerOptions { EnableFastPath = false };
        foreach (string script in FastPathTests.ObservableCases)
        {
            using Engine broken = Js.Ours(serializerOptions: options);
            using Engine reference = Js.Ours(serializerOptions: publicOnly);
            Assert.Equal(Js.Run(reference, script), Js.Run(broken, script));
        }

        using var engine = new Engine();
        var ours = new JsonSerializer(engine, options);
        var slow = new JsonSerializer(engine, publicOnly);
        engine.Execute("function rebuild(v) { if (Array.isArray(v)) return v.map(rebuild); if (v && typeof v === 'object') { var o = {}; for (var k of Object.keys(v)) o[k] = rebuild(v[k]); return o; } return v; }");
        foreach (string file in new[] { "citm_catalog.json", "twitter.json", "corpus/joblist.json", "corpus/events.json" })
        {
            JsValue parsed = Corpus.Parse(engine, file);
            JsValue built = engine.Invoke("rebuild", parsed);
            foreach (JsValue document in (JsValue[])[parsed, built])
            {
                Assert.Equal(slow.SerializeToString(document), ours.SerializeToString(document));
                Assert.Equal(slow.SerializeToString(document, null, 2), ours.SerializeToString(document, null, 2));
            }
        }
    }

    // A callee that keeps the list it was handed, a host function here, is what the argument probe must catch; one
    // that copies it must pass.
    [Fact]
    public void TheArgumentProbeCatchesACalleeThatKeepsItsList()
    {
        using var engine = new Engine();
        var keeper = new ClrFunction(engine, "keeper", (_, kept) =>
            new ClrFunction(engine, "snapshot", (_, _) => new JsArray(engine, [.. kept])));
        var copier = new ClrFunction(engine, "copier", (_, handed) =>
        {
            JsValue[] copy = [.. handed];
            return new ClrFunction(engine, "snapshot", (_, _) => new JsArray(engine, copy));
        });
        Func<JsValue, JsValue[], JsValue> call = (callee, list) => JintInternals.Call(engine, callee, JsValue.Undefined, list);

        Assert.False(JintInternals.KeepsItsArguments(engine, keeper, call));
        Assert.True(JintInternals.KeepsItsArguments(engine, copier, call));
    }

    // A host function is handed the argument list itself: one that keeps it (as a replacer and as toJSON) must see the
    // key and value of its own call afterwards, on either reader, as the spec's fresh list for each call gives.
    [Fact]
    public void AHostFunctionThatKeepsItsArgumentListSeesItsOwnCall()
    {
        foreach (bool fastPath in (bool[])[true, false])
        {
            using var engine = new Engine();
            var kept = new List<JsValue[]>();
            var replacer = new ClrFunction(engine, "replacer", (_, arguments) =>
            {
                kept.Add(arguments);
                return arguments[1];
            });
            var toJson = new ClrFunction(engine, "toJSON", (_, arguments) =>
            {
                kept.Add(arguments);
                return arguments[0];
            });
            engine.SetValue("toJSON", toJson);
            var serializer = new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = fastPath });
            JsValue value = engine.Evaluate("({a: 1, b: [2, {toJSON: toJSON}]})");

            Assert.Equal("{\"a\":1,\"b\":[2,\"1\"]}", serializer.SerializeToString(value, replacer));
            Assert.Equal(["", "a", "b", "0", "1", "1"], kept.Select(arguments => arguments[0].ToString()));
        }
    }

    // A probe that disagrees, or throws as a missing member does, is a failed assumption with its reason, reported to
    // the event source; one that agrees is none.
    [Fact]
    public void AFailedProbeIsReportedWithItsReason()
    {
        using var listener = new Listener();
        string marker = Guid.NewGuid().ToString("N");

        Assert.Null(FastPath.Judge(JintAssumption.HiddenClasses, () => true));
        Assert.Contains("disagreed", FastPath.Judge(JintAssumption.DenseArrays, () => false));
        string? reason = FastPath.Judge(JintAssumption.PropertyTables, () => throw new MissingFieldException(marker));
        Assert.Contains(nameof(MissingFieldException), reason);
        Assert.Contains(marker, reason);

        // Other tests may report real failures meanwhile (on releases that break an assumption): the events are read
        // from a copy, and none of those is about the assumptions judged here, which hold on every claimed release.
        List<EventWrittenEventArgs> events = listener.Snapshot();
        Assert.Contains(events, e => (string?)e.Payload![1] == nameof(JintAssumption.DenseArrays));
        Assert.Contains(events, e => (string?)e.Payload![1] == nameof(JintAssumption.PropertyTables) && ((string?)e.Payload[2])!.Contains(marker, StringComparison.Ordinal));
        Assert.DoesNotContain(events, e => (string?)e.Payload![1] == nameof(JintAssumption.HiddenClasses));
        Assert.All(events, e => Assert.Equal(FastPath.JintVersion, e.Payload![0]));
    }

    private static JsonSerializerOptions Without(JintAssumption assumption) =>
        new() { FastPathAssumptions = JintAssumption.All & ~assumption };

    private sealed class Listener : EventListener
    {
        private readonly List<EventWrittenEventArgs> _events = [];

        public List<EventWrittenEventArgs> Snapshot()
        {
            lock (_events)
            {
                return [.. _events];
            }
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == "JsonStringify")
            {
                EnableEvents(eventSource, EventLevel.Warning);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            lock (_events)
            {
                _events.Add(eventData);
            }
        }
    }
}
