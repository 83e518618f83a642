using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>Opening containers: plain objects (hidden-class, table, listed and keyed), arrays, proxies, raw JSON and
/// host objects.</summary>
internal sealed partial class Walker<TOutput>
{
    private static readonly JsString s_rawJson = new("rawJSON");

    private void Open(ObjectInstance o)
    {
        // The common cases first: plain objects and arrays are never raw JSON, proxies or host objects.
        if (o is JsObject)
        {
            OpenObject(o);
            return;
        }

        if (o is JsArray)
        {
            OpenArray(o);
            return;
        }

        if (o.GetType() == _types.RawJson)
        {
            _output.WriteRaw(TypeConverter.ToString(o.Get(s_rawJson, o)));
            return;
        }

        if (_reader.IsArray(o, _engine) || _reader.IsHostArrayLike(o))
        {
            OpenArray(o);
            return;
        }

        if (o is IObjectWrapper wrapper && _hostSerializer is not null)
        {
            WriteHostJson(wrapper);
            return;
        }

        OpenObject(o);
    }

    // Jint's Options.Interop.SerializeToJson: the host writes wrapped CLR objects itself, given the gap and the
    // indentation of the current line (null at the root and in compact output, as Jint passes it).
    private void WriteHostJson(IObjectWrapper wrapper)
    {
        string? indent = _output.Depth == 0 || _gap.Length == 0 ? null : Indentation.Create(string.Empty, _gap, _output.Depth);
        string? json = _hostSerializer!(wrapper.Target, _gap, indent);
        InvalidatePurity();
        if (!string.IsNullOrEmpty(json))
        {
            _output.WriteRaw(json);
        }
    }

    // SerializeJSONObject steps 1-5: the cycle check, then the keys (a hidden class's own, the property list, or
    // EnumerableOwnProperties).
    private void OpenObject(ObjectInstance o)
    {
        Enter(o);
        _output.StartObject();
        ShapeLayout? layout = GetLayout(o, out object? shape);
        ref Frame frame = ref _frames[_depth - 1];
        if (_propertyList is null && layout is not null)
        {
            StartShapedObject(ref frame, shape!, layout);
        }
        else if (_propertyList is not null && (layout is not null || IsTable(o)))
        {
            // A hidden-class object is read slot by slot, a table object by looking up each listed key in its table.
            frame.Start(FrameKind.ListedObject, (ulong)_propertyList.Count);
            frame.Shape = shape;
            frame.Slots = layout is null ? null : _propertyList.SlotsFor(layout);
            frame.AbsentKeys = AbsentKeys(o.Prototype);
            frame.Epoch = _epoch;
        }
        else if (_propertyList is null && TakeTable(o, out TableSegment table))
        {
            frame.Start(FrameKind.TableObject, (ulong)table.Count);
            frame.TableStart = table.Start;
            frame.Epoch = _epoch;
        }
        else
        {
            // A proxy's ownKeys and getOwnPropertyDescriptor traps run here.
            List<JsValue> list;
            if (_propertyList is not null)
            {
                list = _propertyList.Keys;
            }
            else
            {
                list = _reader.GetEnumerableOwnKeys(o);
                InvalidatePurity();
            }

            frame.Start(FrameKind.KeyedObject, (ulong)list.Count);
            frame.Keys = list;
        }
    }

    // Table rows at least this far apart in memory, ContainerReadAhead places from each other, are large: about 2 KB or
    // more each with their parts, as the rows of a large document that JSON.parse made, each followed by its own
    // contents (GeoJSON's features take about 3.5 KB). Of such a row ahead, FarRowLines cache lines after it are
    // fetched as well, a step at a time (_farRowFetch). Rows that lie closer, or in a smaller output
    // (FetchTablesAhead), are not: there, as in a document built in script by assignment, whose rows lie among other
    // objects, the fetches cost more than they save.
    private const long FarRowsDistance = 4096;

    // The cache lines after a large row ahead that are fetched: its first 2 KB.
    private const int FarRowLines = 32;

    // The fetch of a large row ahead: started as the row before it opens, and moved on a step at each element of an
    // array and each property of a table the walk goes through meanwhile (RunArray, RunTableObject), so that the row's
    // lines are on their way while the walk reads what lies before them.
    private ReadAhead.SpreadFetch _farRowFetch;

    // Opens what IsPure accepted; false when no frame was pushed: an empty array, an object whose class has no keys, an
    // array whose elements are all JSON primitives, and an object whose values are (of a hidden class wherever it is,
    // or a property table that is an element of an array) are written whole, after the same depth and cycle checks that
    // opening them would make (the depth limit counts them; an array may be on the stack, emptied by a toJSON).
    // Hidden-class objects that are properties' values are tried as leaves too; tables that are properties' values are
    // pushed at once, since trying them as leaves gained nothing measurable.
    // ahead is the element ContainerReadAhead places on, for an element, when there is one.
    private bool OpenPure(JsValue value, object? shape, ShapeLayout? layout, bool asElement, JsValue? ahead)
    {
        if (layout is not null)
        {
            if (layout.Keys.Length == 0)
            {
                CheckEnter(Unsafe.As<JsObject>(value));
                _output.WriteEmptyObject();
                return false;
            }

            return OpenShapedValue(Unsafe.As<JsObject>(value), shape!, layout);
        }

        if (value is JsObject table)
        {
            if (asElement)
            {
                if (ahead is not null && FetchTablesAhead && ReadAhead.Distance(table, ahead) >= FarRowsDistance)
                {
                    _farRowFetch.Start(ahead, FarRowLines);
                }

                return OpenPureTableElement(table);
            }

            OpenPureTable(table);
            return true;
        }

        var array = Unsafe.As<JsArray>(value);
        uint length = array.Length;
        if (length != 0)
        {
            return OpenPureArray(array, length);
        }

        CheckEnter(array);
        _output.WriteEmptyArray();
        return false;
    }

    // OpenPure for a non-empty array (a pair of coordinates, a list of ids or tags, most often), as OpenShapedValue
    // does for an object: its leading elements that are JSON primitives are written at once, and it is pushed only at
    // one that is not (or a hole, which RunArray reads with [[Get]]). An array of primitives is so written whole
    // without a frame. A longer one costs nothing more than RunArray would. True when a frame was pushed. length is the
    // array's, read by OpenPure: reading a JsArray's length runs no code, so it may come before the cycle check.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool OpenPureArray(JsArray array, uint length)
    {
        Debug.Assert(_replacer is null, "a pure walk");
        CheckEnter(array);
        StartArrayOf(length);

        // The elements are read from storage once: until the loop stops, nothing runs but the output and the work
        // budget, which cannot reach the array, so each [[Get]] would read what the span holds.
        ReadOnlySpan<JsValue?> elements = _reader.DenseElements(array, length);

        // A long array whose numbers change sign and length at random has its leading numbers written apart.
        int i = elements.Length >= ErraticSampleFrom && IsErratic(elements) ? WriteErraticNumbers(elements) : 0;
        for (; i < elements.Length; i++)
        {
            JsValue? value = elements[i];
            if (value is null)
            {
                break;
            }

            Types type = value.Type;
            if (!IsJsonPrimitive(type))
            {
                break;
            }

            FetchPrimitiveAhead(elements, i);

            _output.WriteSeparator(i == 0);
            WritePrimitive(value, type);
            CountWork();
        }

        if ((uint)i == length)
        {
            _output.EndArray(empty: false);
            return false;
        }

        // Nothing has run since CheckEnter but the output and the work budget, which cannot reach the stack.
        Push(array);
        ref Frame frame = ref _frames[_depth - 1];
        frame.Start(FrameKind.Array, length);
        frame.Resume((ulong)i);
        return true;
    }

    // OpenObject for a table object whose properties IsPure has just read ahead, with no property list: they are its
    // keys, and nothing has run since.
    private void OpenPureTable(JsObject o)
    {
        Debug.Assert(ReferenceEquals(_tableAheadOwner, o) && _tableAheadEpoch == _epoch && _propertyList is null, "IsPure read this table just now");
        Enter(o);
        _output.StartObject();
        StartPureTable();
    }

    // Asks for the element PrimitiveReadAhead places after element i to be fetched, where there is one: for both of
    // OpenPureArray's loops.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void FetchPrimitiveAhead(ReadOnlySpan<JsValue?> elements, int i)
    {
        if (i + PrimitiveReadAhead < elements.Length && elements[i + PrimitiveReadAhead] is { } ahead)
        {
            ReadAhead.Line(ahead);
        }
    }

    // The least length of an array that OpenPureArray samples with IsErratic: the sample of an array that is not
    // erratic takes 17 to 73 ns (as long as writing 4 to 14 of its numbers), up to 5% of an array this long.
    private const int ErraticSampleFrom = 256;

    // IsErratic's sample: runs of neighbours at the start and at each quarter of the array, so that the start of a
    // series (a gauge near zero, changing sign) does not decide for the whole of it; and how many of the sample's pairs
    // of neighbours must differ in sign (a quarter) and in number of digits (half), and how many of the first run's in
    // number of digits (half), which most arrays fail after a few elements.
    private const int ErraticRuns = 4;
    private const int ErraticRunLength = 5;
    private const int ErraticPairs = ErraticRuns * (ErraticRunLength - 1);
    private const int ErraticSignChanges = ErraticPairs / 4;
    private const int ErraticLengthChanges = ErraticPairs / 2;
    private const int ErraticFirstRunLengthChanges = (ErraticRunLength - 1) / 2;

    // OpenPureArray's loop for the leading numbers of an array that IsErratic found erratic, each written by
    // WriteErraticNumber; returns the index of the first element that is not a number (or the length). A loop of its
    // own, so that the loop of every other array has no test more.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int WriteErraticNumbers(ReadOnlySpan<JsValue?> elements)
    {
        int i = 0;
        for (; i < elements.Length; i++)
        {
            if (elements[i] is not { Type: Types.Number } value)
            {
                break;
            }

            FetchPrimitiveAhead(elements, i);

            _output.WriteSeparator(i == 0);
            _output.WriteErraticNumber(value.AsNumber());
            CountWork();
        }

        return i;
    }

    /// <summary>
    /// Whether the numbers of an array change both sign and length at random (the differences of a time series, say),
    /// which a processor cannot predict: for such numbers a branch on either costs more than writing the number without
    /// one. The numbers of most arrays (ids, counts, coordinates, a series' values) keep their sign and length from one
    /// to the next, and where only one of the two changes at random, the branches cost no more than the path without
    /// them in a process that serves such arrays (measured in fresh processes). Looks at <see cref="ErraticRuns"/> runs
    /// of <see cref="ErraticRunLength"/> neighbours, all of which must be whole numbers between -10^8 and 10^8
    /// (exclusive), and counts the pairs of neighbours that differ in sign and those that differ in number of digits.
    /// Stops at the first element that is not such a number, and as soon as a count cannot reach its threshold.
    /// </summary>
    internal static bool IsErratic(ReadOnlySpan<JsValue?> elements)
    {
        Debug.Assert(elements.Length >= ErraticRuns * ErraticRunLength, "runs that do not overlap");
        int signChanges = 0;
        int lengthChanges = 0;
        int pairsLeft = ErraticPairs;
        for (int run = 0; run < ErraticRuns; run++)
        {
            int start = elements.Length / ErraticRuns * run;
            bool wasNegative = false;
            int previousDigits = 0;
            for (int k = 0; k < ErraticRunLength; k++)
            {
                if (elements[start + k] is not { Type: Types.Number } element)
                {
                    return false;
                }

                double value = element.AsNumber();
                double magnitude = Math.Abs(value);
                if (!(magnitude < NumberFormatter.SignedWholeNumberLimit) || Math.Floor(magnitude) != magnitude)
                {
                    return false;
                }

                bool negative = value < 0;
                int digits = NumberFormatter.CountDigits((uint)magnitude);
                if (k > 0)
                {
                    pairsLeft--;
                    signChanges += negative != wasNegative ? 1 : 0;
                    lengthChanges += digits != previousDigits ? 1 : 0;
                    if (signChanges + pairsLeft < ErraticSignChanges || lengthChanges + pairsLeft < ErraticLengthChanges
                        || (run == 0 && lengthChanges + (ErraticRunLength - 1 - k) < ErraticFirstRunLengthChanges))
                    {
                        return false;
                    }
                }

                wasNegative = negative;
                previousDigits = digits;
            }
        }

        return true;
    }

    // OpenPureTable for an element of an array (a row built by assignment, most often), as OpenShapedValue does for
    // a hidden class: its leading properties whose values are JSON primitives are written from the table just read,
    // and it is pushed only at one that is not (or an accessor). Every row is tried: a row that is not a leaf has its
    // leading properties written here instead of in RunTableObject, which costs nothing more. True when a frame was
    // pushed.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool OpenPureTableElement(JsObject o)
    {
        Debug.Assert(ReferenceEquals(_tableAheadOwner, o) && _tableAheadEpoch == _epoch && _propertyList is null, "IsPure read this table just now");
        Debug.Assert(_replacer is null, "a pure walk");
        CheckEnter(o);
        _output.StartObject();
        int count = _tableAhead.Count;
        int written = 0;
        for (; written < count; written++)
        {
            // The descriptors are the properties themselves: nothing but the output and the work budget has run since
            // the table was read.
            ref TableEntry entry = ref _tables.Entries[_tableAhead.Start + written];
            PropertyDescriptor descriptor = entry.Descriptor;
            if (!IsPlainData(descriptor))
            {
                break;
            }

            JsValue value = descriptor.Value;
            Types type = value.Type;
            if (!IsJsonPrimitive(type))
            {
                break;
            }

            _output.WritePropertyName(entry.Name, written == 0);
            WritePrimitive(value, type);
            CountWork();
        }

        if (written == count)
        {
            _output.EndObject(empty: count == 0);
            DropTableReadAhead();
            return false;
        }

        Push(o);
        StartPureTable();
        _frames[_depth - 1].Resume((ulong)written);
        return true;
    }

    // The frame just pushed for the table object read ahead.
    private void StartPureTable()
    {
        ref Frame frame = ref _frames[_depth - 1];
        frame.Start(FrameKind.TableObject, (ulong)_tableAhead.Count);
        frame.TableStart = _tableAhead.Start;
        frame.Epoch = _epoch;
        _tableAheadOwner = null;
    }

    // OpenObject for an object already known to have a usable hidden class, and no property list.
    private void OpenShapedObject(JsObject o, object shape, ShapeLayout layout)
    {
        Enter(o);
        _output.StartObject();
        StartShapedObject(ref _frames[_depth - 1], shape, layout);
    }

    // OpenShapedObject for an element of an array (a row of a table, most often) or a property's value, with no
    // replacer function and no property list. Its leading properties whose values are JSON primitives are written at
    // once; only when one is not (or a slot is lazy, or the class changed) is the object put on the stack, to go on
    // from there in RunShapedObject. A leaf is so written whole without a frame, as an empty object is. After an object
    // that is not, the next objects of its class are pushed at once. True when a frame was pushed.
    private bool OpenShapedValue(JsObject o, object shape, ShapeLayout layout)
    {
        Debug.Assert(_replacer is null && _propertyList is null, "a pure walk");
        if (layout.LeafTriesSkipped > 0)
        {
            layout.LeafTriesSkipped--;
            OpenShapedObject(o, shape, layout);
            return true;
        }

        return TryWriteLeaf(o, shape, layout);
    }

    // OpenShapedValue's try: the object written whole, or pushed with its leading properties written (true). A value
    // that is an object or an array is opened in place (OpenInPlace), up to MaxInPlaceLevels deep, so that an object
    // whose containers are leaves is written whole too; from the first such value on, o is on the stack under it, as
    // RunShapedObject would have it. Kept out of RunArray and RunShapedObject, whose code stays as small for the
    // objects that skip it.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryWriteLeaf(JsObject o, object shape, ShapeLayout layout)
    {
        CheckEnter(o);
        _output.StartObject();
        int count = layout.Keys.Length;
        int written = 0;
        bool pushed = false;
        while (true)
        {
            written = WriteLeadingPrimitives(o, shape, layout, written);
            if (written == count || _inPlaceLevels == MaxInPlaceLevels)
            {
                break;
            }

            if (!pushed)
            {
                // The frames must not move while values are opened in place: a caller that has o written whole goes
                // on with its own frame, which it holds by reference. So o, and the value's object in its turn, must
                // find room on the stack as it is.
                if (_depth + MaxInPlaceLevels >= _frames.Length)
                {
                    break;
                }

                // Nothing has run since CheckEnter but the output and the work budget, which cannot reach the stack.
                PushShapedObject(o, shape, layout);
                pushed = true;
            }

            InPlace opened = OpenInPlace(o, shape, layout, written);
            if (opened == InPlace.Pushed)
            {
                layout.LeafTriesSkipped = JsonConstants.LeafTriesSkipped;
                return true;
            }

            if (opened == InPlace.NotOpened)
            {
                break;
            }

            written++;
        }

        if (written == count)
        {
            _output.EndObject(empty: false);
            if (pushed)
            {
                Exit();
            }

            return false;
        }

        layout.LeafTriesSkipped = JsonConstants.LeafTriesSkipped;
        if (!pushed)
        {
            PushShapedObject(o, shape, layout);
        }

        _frames[_depth - 1].Resume((ulong)written);
        return true;
    }

    // How many objects TryWriteLeaf opens values in, one inside another: a bound on the thread's stack, which the
    // frames otherwise never use.
    private const int MaxInPlaceLevels = 2;

    // How many TryWriteLeaf calls are opening a value in place; zero between calls.
    private int _inPlaceLevels;

    private enum InPlace
    {
        // The value is not an object or an array that IsPure accepts: TryWriteLeaf leaves o pushed, to go on from it.
        NotOpened,

        // The value was written whole: TryWriteLeaf goes on with o.
        Written,

        // The value was pushed, above o, which goes on after the value's property.
        Pushed,
    }

    // A frame for a hidden-class object that CheckEnter has accepted, with no user code run since.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void PushShapedObject(JsObject o, object shape, ShapeLayout layout)
    {
        Push(o);
        StartShapedObject(ref _frames[_depth - 1], shape, layout);
    }

    // The value of the property at index of o, which TryWriteLeaf has pushed and written up to there: when IsPure
    // accepts it, its name and the value opened at once, as RunShapedObject does. With the frame's index past the
    // property, o is as RunShapedObject would have it while the value is open, for the cycle check, the depth limit
    // and its error messages, and to go on from should the value be pushed.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private InPlace OpenInPlace(JsObject o, object shape, ShapeLayout layout, int index)
    {
        ref Frame frame = ref _frames[_depth - 1];
        Debug.Assert(ReferenceEquals(frame.Container, o) && frame.Kind == FrameKind.ShapedObject, "o is on top");
        if (!ValueReader.HasShape(o, shape)
            || ValueReader.TryGetSlot(o, index) is not { } value
            || value.Type != Types.Object
            || !IsPure(ref frame, value, out object? childShape, out ShapeLayout? childLayout))
        {
            return InPlace.NotOpened;
        }

        frame.Index = (ulong)index + 1;
        frame.Empty = index == 0;
        _inPlaceLevels++;
        bool pushed = OpenPureProperty(
            ref frame, layout.Keys[index], QuotedNames(layout)[index], quoted: true, value, childShape, childLayout);
        _inPlaceLevels--;
        return pushed ? InPlace.Pushed : InPlace.Written;
    }

    // The properties of a hidden-class object from start, while each value read from its slot is a JSON primitive
    // (which SerializeJSONProperty writes as it is, with no replacer function): the index of the first one not
    // written. As in RunShapedObject, the class is checked before every read. Inlined into TryWriteLeaf, its one
    // caller, which a profile did by itself and code compiled without one did not.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int WriteLeadingPrimitives(JsObject o, object shape, ShapeLayout layout, int start)
    {
        string[] names = QuotedNames(layout);
        JsValue[] keys = layout.Keys;
        Debug.Assert(names.Length == keys.Length, "a quoted name for every key");
        int i = start;
        for (; i < names.Length; i++)
        {
            if (!ValueReader.HasShape(o, shape) || ValueReader.TryGetSlot(o, i) is not { } value)
            {
                break;
            }

            Types type = value.Type;
            if (!IsJsonPrimitive(type))
            {
                break;
            }

            _output.WriteQuotedPropertyName(names[i], PlainName(keys, i), i == 0);
            WritePrimitive(value, type);
            CountWork();
        }

        return i;
    }

    // The frame at this depth mostly held a sibling of the object, of its class: each reference is stored only when it
    // differs, since a store into frames that have aged takes the write barrier's long path (see RenewAgedArrays).
    private static void StartShapedObject(ref Frame frame, object shape, ShapeLayout layout)
    {
        frame.Start(FrameKind.ShapedObject, (ulong)layout.Keys.Length);
        if (!ReferenceEquals(frame.Shape, shape))
        {
            frame.Shape = shape;
        }

        if (!ReferenceEquals(frame.Layout, layout))
        {
            frame.Layout = layout;
        }
    }

    // SerializeJSONArray steps 1-5: the cycle check, then LengthOfArrayLike.
    private void OpenArray(ObjectInstance array)
    {
        Enter(array);
        ulong length = ValueReader.GetLength(array);
        if (array is not JsArray)
        {
            // A proxy's get trap ran for "length".
            InvalidatePurity();
        }

        StartArrayOf(length);
        _frames[_depth - 1].Start(FrameKind.Array, length);
    }

    private void StartArrayOf(ulong length)
    {
        // The shortest text the array can have: its brackets, a comma between elements, and a char for each element
        // (none for a CLR object that the host serializer writes as nothing). When even that is past the limit, the
        // RangeError comes now, before any element is read, as V8 throws for a length of 2**32 + 1.
        ulong shortest = (_hostSerializer is null ? 2 * length : length) + 1;
        if ((ulong)_output.Length + shortest > (ulong)_lengthLimit)
        {
            Throw.InvalidStringLength(_engine, _reader);
        }

        _output.StartArray();
    }
}
