"""About-me texts for demo members, per interface language.

A text is an opener, often a sentence about one of the member's interests, and often a
closer; the sentences avoid gendered forms so they suit every member.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class AboutMeTexts:
    openers: tuple[str, ...]
    middles: dict[str, tuple[str, ...]]  # by interest
    closers: tuple[str, ...]


# Interests without a sentence of their own borrow a related one.
_RELATED_INTEREST = {"sports": "fitness", "wine": "cooking", "dancing": "music"}

ABOUT_ME: dict[str, AboutMeTexts] = {
    "nl": AboutMeTexts(
        openers=(
            "Ik ben iemand die geniet van de kleine dingen: een goed gesprek, een mooie "
            "zonsondergang en verse koffie op zondagochtend.",
            "Vrolijk, eerlijk en soms een beetje eigenwijs, zo zouden mijn vrienden me "
            "omschrijven.",
            "Na een drukke werkweek kom ik het liefst tot rust in goed gezelschap.",
            "Ik sta positief in het leven en neem mezelf niet al te serieus.",
            "Gezellig, zorgzaam en altijd in voor een grapje.",
            "Nieuw hier en benieuwd wie ik op mijn pad tegenkom.",
            "Ik hou van echte mensen, zonder poespas.",
            "In het begin ben ik wat rustig, maar als het ijs gebroken is, ben ik een echte "
            "kletskous.",
            "Ik ben een echte levensgenieter, met een zwak voor terrasjes en lange gesprekken.",
            "Spontaan, nieuwsgierig en recht door zee: wat je ziet, is wat je krijgt.",
            "Ik geloof dat samen lachen het halve werk is, ook in de liefde.",
            "Mijn leven is goed gevuld, alleen mis ik nog iemand om het mee te delen.",
        ),
        middles={
            "nature": (
                "Op zaterdag fiets ik graag een rondje langs het water of struin ik over de markt.",
                "Ik word blij van lange strandwandelingen, ook als het waait.",
            ),
            "cooking": (
                "Koken voor vrienden met een goed glas wijn erbij is voor mij het perfecte "
                "avondje.",
                "Ik sta graag in de keuken en mijn lasagne is inmiddels beroemd bij vrienden.",
            ),
            "travel": (
                "Ik reis graag zonder strak plan en ontdek dan kleine dorpjes en verborgen "
                "terrasjes.",
                "Mijn koffer staat bijna altijd half ingepakt voor het volgende avontuur.",
            ),
            "music": (
                "Muziek speelt een grote rol in mijn leven, van festivals tot een rustig "
                "concert in een kerkje.",
                "Onder de douche zing ik luidkeels mee, en op een feestje sta ik als eerste op "
                "de dansvloer.",
            ),
            "fitness": (
                "Ik sport een paar keer per week, maar een stuk appeltaart sla ik nooit af.",
                "Hardlopen in het park maakt mijn hoofd leeg na een lange dag.",
            ),
            "movies": (
                "Een avond op de bank met een goede film vind ik net zo fijn als een avondje uit.",
                "Ik ben dol op de bioscoop, van romantische komedies tot spannende thrillers.",
            ),
            "reading": (
                "Ik lees veel en kan uren verdwalen in een goed boek.",
                "Op mijn nachtkastje ligt altijd een stapel boeken die ik nog wil lezen.",
            ),
            "animals": (
                "Mijn hond zorgt ervoor dat ik elke dag buiten kom, weer of geen weer.",
                "Thuis word ik opgewacht door mijn kat, die eigenlijk de baas in huis is.",
            ),
        },
        closers=(
            "Ben jij ook toe aan iets moois? Stuur me gerust een berichtje!",
            "Ik zoek iemand met humor en een warm hart, de rest zien we wel.",
            "Zin om samen koffie te drinken en te kijken of het klikt?",
            "Geen haast, gewoon kijken waar het naartoe gaat.",
            "Durf jij de eerste stap te zetten?",
            "Wie weet drinken we binnenkort samen een wijntje.",
            "Een eerlijke glimlach zegt mij meer dan duizend woorden.",
            "Ik kijk uit naar je bericht.",
            "Benieuwd naar mij? Ik ben benieuwd naar jou!",
            "Als je van gezelligheid en goede gesprekken houdt, moeten we elkaar echt spreken.",
            "Een wandeling, een terrasje of gewoon een kop thee, ik sta overal voor open.",
            "Tot snel, hopelijk!",
        ),
    ),
    "de": AboutMeTexts(
        openers=(
            "Ich bin ein offener, herzlicher Mensch und lache gern und viel.",
            "Bodenständig, neugierig und mit einer Portion Humor, so würden mich meine Freunde "
            "beschreiben.",
            "Ich genieße das Leben in vollen Zügen und freue mich über die kleinen Dinge.",
            "Nach der Arbeit brauche ich frische Luft, gute Musik und nette Gesellschaft.",
            "Ehrlichkeit und Herzlichkeit sind mir wichtiger als alles andere.",
            "Ich bin eher ruhig, aber wer mich kennt, weiß, dass ich ziemlich albern sein kann.",
            "Neu hier und gespannt, wen ich kennenlerne.",
            "Ich stehe mit beiden Beinen im Leben und weiß, was ich will.",
            "Ich bin ein echter Genussmensch und liebe lange Gespräche bei gutem Essen.",
            "Spontan, neugierig und direkt: Bei mir weißt du, woran du bist.",
            "Gemeinsam lachen ist für mich die halbe Miete, auch in der Liebe.",
            "Mein Leben ist schön und voll, nur fehlt mir noch jemand, mit dem ich es teilen kann.",
        ),
        middles={
            "nature": (
                "Am liebsten bin ich draußen unterwegs, beim Wandern in den Bergen oder mit dem "
                "Rad am See.",
                "Lange Spaziergänge am Strand machen mich glücklich, auch wenn es mal stürmt.",
            ),
            "cooking": (
                "Ich koche leidenschaftlich gern und probiere ständig neue Rezepte aus.",
                "Ich stehe gern in der Küche, und meine Lasagne ist im Freundeskreis inzwischen "
                "berühmt.",
            ),
            "travel": (
                "Reisen ist meine große Leidenschaft, egal ob Städtetrip oder Hütte in den Bergen.",
                "Mein Koffer ist eigentlich immer halb gepackt für das nächste Abenteuer.",
            ),
            "music": (
                "Konzerte, Festivals oder einfach Musik im Wohnzimmer: Ohne Musik geht bei mir "
                "nichts.",
                "Unter der Dusche singe ich laut mit, und auf Partys zieht es mich sofort auf "
                "die Tanzfläche.",
            ),
            "fitness": (
                "Ich mache regelmäßig Sport, sage aber zu einem Stück Kuchen nie nein.",
                "Joggen im Park macht nach einem langen Tag den Kopf frei.",
            ),
            "movies": (
                "Ein gemütlicher Abend mit einem guten Film und einem Glas Rotwein ist für mich "
                "perfekt.",
                "Ich liebe das Kino, von romantischen Komödien bis zu spannenden Krimis.",
            ),
            "reading": (
                "Sonntags findet man mich oft in einem kleinen Café, mit einem Buch in der Hand.",
                "Auf meinem Nachttisch liegt immer ein Stapel Bücher, die ich noch lesen will.",
            ),
            "animals": (
                "Mein Hund hält mich auf Trab und sorgt dafür, dass ich bei jedem Wetter rausgehe.",
                "Zu Hause wartet meine Katze auf mich, die eigentlich das Sagen hat.",
            ),
        },
        closers=(
            "Wenn du Lust auf ein Gespräch hast, schreib mir einfach!",
            "Ich suche jemanden mit Humor, Herz und Verstand.",
            "Wie wäre es mit einem Kaffee, um zu schauen, ob es passt?",
            "Alles kann, nichts muss: Lass uns einfach sehen, was sich ergibt.",
            "Traust du dich, den ersten Schritt zu machen?",
            "Vielleicht trinken wir ja bald zusammen ein Glas Wein.",
            "Ein ehrliches Lächeln sagt mir mehr als tausend Worte.",
            "Ich freue mich auf deine Nachricht.",
            "Neugierig geworden? Ich bin es auch!",
            "Wenn du gute Gespräche und gemütliche Abende magst, sollten wir uns kennenlernen.",
            "Ein Spaziergang, ein Biergarten oder einfach ein Tee, ich bin für vieles offen.",
            "Bis hoffentlich bald!",
        ),
    ),
    "it": AboutMeTexts(
        openers=(
            "Sono una persona solare, curiosa e con la battuta sempre pronta.",
            "Amo le cose semplici: una bella chiacchierata, un buon caffè e le persone sincere.",
            "Chi mi conosce dice che ho la testa dura, ma un gran cuore.",
            "Dopo una lunga giornata di lavoro mi piace staccare la spina in buona compagnia.",
            "Credo nella sincerità, nel rispetto e in una sana dose di ironia.",
            "Sorridere è il mio modo di affrontare le giornate, anche quelle storte.",
            "Mi descrivono come una persona tranquilla, ma quando mi lascio andare so essere "
            "molto divertente.",
            "Da poco su questo sito, vediamo chi incontro!",
            "Amo godermi la vita, tra buon cibo e lunghe chiacchierate.",
            "Spontaneità, curiosità e sincerità: con me quello che vedi è quello che c'è.",
            "Per me ridere insieme è già metà dell'opera, anche in amore.",
            "La mia vita è piena di belle cose, manca solo qualcuno con cui condividerle.",
        ),
        middles={
            "nature": (
                "Appena posso scappo al mare o in montagna, dipende dalla stagione.",
                "Le lunghe passeggiate in riva al mare mi mettono di buon umore, anche quando "
                "tira vento.",
            ),
            "cooking": (
                "Nel tempo libero adoro cucinare per gli amici, possibilmente con un buon "
                "bicchiere di vino.",
                "Mi piace stare ai fornelli e la mia lasagna è ormai famosa tra gli amici.",
            ),
            "travel": (
                "Viaggiare è la mia passione: ogni volta che parto torno a casa con qualcosa di "
                "nuovo.",
                "La mia valigia è sempre mezza pronta per la prossima avventura.",
            ),
            "music": (
                "La musica mi accompagna sempre, dai concerti dal vivo alle serate davanti al "
                "giradischi.",
                "Canto a squarciagola sotto la doccia e alle feste sono sempre in pista.",
            ),
            "fitness": (
                "Faccio sport per stare bene, ma non rinuncio mai a una pizza con gli amici.",
                "Correre al parco mi libera la testa dopo una lunga giornata.",
            ),
            "movies": (
                "Una serata sul divano con un bel film è il mio piccolo lusso.",
                "Adoro il cinema, dalle commedie romantiche ai gialli più avvincenti.",
            ),
            "reading": (
                "Leggo tanto e adoro perdermi tra gli scaffali di una libreria.",
                "Sul comodino ho sempre una pila di libri che aspettano di essere letti.",
            ),
            "animals": (
                "Il mio cane mi porta fuori ogni giorno, con il sole o con la pioggia.",
                "A casa mi aspetta il mio gatto, che in realtà è il vero padrone di casa.",
            ),
        },
        closers=(
            "Se ti va di conoscermi, scrivimi pure!",
            "Cerco una persona sincera, con cui ridere e condividere momenti belli.",
            "Ti va di prendere un caffè insieme e vedere se c'è sintonia?",
            "Senza fretta, lasciamo che le cose vengano da sé.",
            "Hai il coraggio di fare il primo passo?",
            "Chissà, magari il prossimo aperitivo lo prendiamo insieme.",
            "Un sorriso sincero vale più di mille parole.",
            "Aspetto un tuo messaggio!",
            "Se ti ho messo un po' di curiosità, scrivimi!",
            "Se ami le belle chiacchierate e le serate tranquille, dovremmo proprio conoscerci.",
            "Una passeggiata, un aperitivo o semplicemente un tè: scegli tu!",
            "A presto, spero!",
        ),
    ),
    "fr": AboutMeTexts(
        openers=(
            "Je suis quelqu'un de souriant, curieux de tout et plutôt bon vivant.",
            "J'aime les choses simples : un bon repas, une belle balade et des gens sincères.",
            "Mes amis diraient que j'ai un grand cœur et un humour parfois douteux.",
            "Après une journée chargée, rien de mieux qu'un bon moment entre amis.",
            "La sincérité et le respect sont pour moi essentiels.",
            "J'ai un caractère plutôt calme, mais je sais aussi faire la fête.",
            "Je croque la vie à pleines dents et j'adore rire.",
            "Je découvre ce site avec un mélange de curiosité et d'enthousiasme.",
            "J'aime profiter de la vie, entre bonne cuisine et longues discussions.",
            "Spontanéité, curiosité et franchise : avec moi, pas de faux-semblants.",
            "Pour moi, rire ensemble, c'est déjà la moitié du chemin, en amour aussi.",
            "Ma vie est bien remplie, il ne manque plus que quelqu'un avec qui la partager.",
        ),
        middles={
            "nature": (
                "Dès que je peux, je file à la mer ou à la montagne pour respirer.",
                "Rien ne me fait autant de bien qu'une longue promenade au bord de la mer, même "
                "par grand vent.",
            ),
            "cooking": (
                "J'adore cuisiner pour mes proches, avec un bon verre de vin bien sûr.",
                "Je passe volontiers du temps en cuisine et mes lasagnes sont devenues célèbres "
                "auprès de mes amis.",
            ),
            "travel": (
                "Les voyages sont ma passion, surtout quand ils sont improvisés.",
                "Ma valise est toujours à moitié prête pour la prochaine aventure.",
            ),
            "music": (
                "La musique m'accompagne partout, des concerts en plein air aux soirées "
                "tranquilles à la maison.",
                "Je chante à tue-tête sous la douche et en soirée, on me trouve toujours sur la "
                "piste de danse.",
            ),
            "fitness": (
                "Je fais du sport pour garder la forme, mais je ne dis jamais non à une part de "
                "tarte.",
                "Courir au parc me vide la tête après une longue journée.",
            ),
            "movies": (
                "Une soirée cinéma sous un plaid, c'est mon petit plaisir.",
                "J'adore le cinéma, des comédies romantiques aux polars haletants.",
            ),
            "reading": (
                "Je lis beaucoup et je peux passer des heures dans une librairie.",
                "Sur ma table de nuit, il y a toujours une pile de livres qui m'attendent.",
            ),
            "animals": (
                "Mon chien me fait sortir par tous les temps, et j'adore ça.",
                "À la maison, mon chat m'attend, et c'est clairement lui le chef.",
            ),
        },
        closers=(
            "Si le courant passe, on pourrait prendre un verre ensemble ?",
            "Je cherche une personne sincère, avec de l'humour et du cœur.",
            "N'hésite pas à m'écrire, je réponds toujours !",
            "Pas de pression, voyons simplement où cela nous mène.",
            "Oseras-tu faire le premier pas ?",
            "Qui sait, notre prochaine balade se fera peut-être à deux.",
            "Un sourire sincère vaut mieux que mille mots.",
            "Au plaisir de te lire !",
            "Un peu de curiosité ? Écris-moi et faisons connaissance !",
            "Si tu aimes les bonnes discussions et les soirées tranquilles, nous devrions nous "
            "rencontrer.",
            "Une balade, un apéro ou simplement un thé, à toi de choisir !",
            "À très vite, j'espère !",
        ),
    ),
    "es": AboutMeTexts(
        openers=(
            "Soy una persona alegre, sencilla y con muchas ganas de disfrutar de la vida.",
            "Me encantan las cosas sencillas: una buena conversación, un café al sol y la gente "
            "auténtica.",
            "Mis amigos dicen que tengo un gran corazón y un humor un poco peculiar.",
            "Después de un día largo, nada como desconectar en buena compañía.",
            "Valoro la sinceridad, el respeto y la complicidad por encima de todo.",
            "Tengo un carácter tranquilo, pero cuando cojo confianza no paro de reír.",
            "Vivo el momento y procuro sacarle una sonrisa a cada día.",
            "Acabo de llegar a esta página y tengo curiosidad por ver a quién conozco.",
            "Disfruto de la vida a tope, entre buena comida y largas charlas.",
            "Espontaneidad, curiosidad y sinceridad: conmigo lo que ves es lo que hay.",
            "Para mí, reír en compañía es media vida, también en el amor.",
            "Mi vida está llena de cosas bonitas, solo me falta alguien con quien compartirlas.",
        ),
        middles={
            "nature": (
                "En cuanto puedo me escapo a la playa o a la montaña.",
                "Un largo paseo por la orilla del mar me pone de buen humor, aunque haga viento.",
            ),
            "cooking": (
                "Cocinar para los amigos con un buen vino es mi plan perfecto.",
                "Me encanta meterme en la cocina y mi tortilla ya es famosa entre mis amigos.",
            ),
            "travel": (
                "Viajar es mi pasión, sobre todo cuando no hay un plan fijo.",
                "Siempre tengo la maleta medio hecha para la próxima aventura.",
            ),
            "music": (
                "La música me acompaña siempre, desde conciertos al aire libre hasta tardes "
                "tranquilas en casa.",
                "Canto a pleno pulmón en la ducha y en las fiestas siempre acabo en la pista de "
                "baile.",
            ),
            "fitness": (
                "Hago deporte para sentirme bien, pero nunca digo que no a unas tapas.",
                "Salir a correr por el parque me despeja la cabeza después de un día largo.",
            ),
            "movies": (
                "Una noche de peli y manta es mi pequeño lujo.",
                "Me encanta el cine, desde las comedias románticas hasta las películas de "
                "suspense.",
            ),
            "reading": (
                "Leo mucho y puedo pasar horas perdiéndome en una librería.",
                "En mi mesilla siempre hay una pila de libros esperando su turno.",
            ),
            "animals": (
                "Mi perro se encarga de que salga a pasear todos los días, llueva o haga sol.",
                "En casa me espera mi gato, que en realidad es quien manda.",
            ),
        },
        closers=(
            "Si te apetece conocerme, ¡escríbeme!",
            "Busco a alguien sincero, con sentido del humor y buen corazón.",
            "¿Nos tomamos un café y vemos si hay química?",
            "Sin prisas, a ver adónde nos lleva esto.",
            "¿Te atreves a dar el primer paso?",
            "Quién sabe, quizá el próximo paseo lo demos en compañía.",
            "Una sonrisa sincera dice más que mil palabras.",
            "¡Espero tu mensaje!",
            "¿Te pica la curiosidad? ¡Escríbeme y nos conocemos!",
            "Si te gustan las buenas charlas y las noches tranquilas, deberíamos conocernos.",
            "Un paseo, unas cañas o simplemente un té, ¡tú eliges!",
            "¡Hasta pronto, espero!",
        ),
    ),
    "pl": AboutMeTexts(
        openers=(
            "Jestem pogodną, otwartą osobą, która lubi się śmiać.",
            "Cenię proste rzeczy: dobrą rozmowę, poranną kawę i szczerych ludzi.",
            "Przyjaciele mówią, że mam wielkie serce i nieco zwariowane poczucie humoru.",
            "Po całym dniu pracy najchętniej odpoczywam w dobrym towarzystwie.",
            "Szczerość i wzajemny szacunek są dla mnie najważniejsze.",
            "Z natury jestem spokojną osobą, ale potrafię też szaleć na parkiecie.",
            "Cieszę się życiem i staram się nie brać wszystkiego zbyt poważnie.",
            "Jestem tu od niedawna i ciekawi mnie, kogo poznam.",
            "Lubię cieszyć się życiem, dobrym jedzeniem i długimi rozmowami.",
            "Spontaniczność, ciekawość świata i szczerość: ze mną wszystko jest jasne.",
            "Uważam, że wspólny śmiech to połowa sukcesu, także w miłości.",
            "Moje życie jest pełne dobrych chwil, brakuje mi tylko kogoś, z kim mogę je dzielić.",
        ),
        middles={
            "nature": (
                "W wolne dni lubię jeździć na rowerze za miastem albo spacerować po lesie.",
                "Długie spacery brzegiem morza zawsze poprawiają mi humor, nawet gdy mocno wieje.",
            ),
            "cooking": (
                "Uwielbiam gotować dla znajomych, najlepiej przy lampce dobrego wina.",
                "Lubię spędzać czas w kuchni, a moje pierogi są już sławne wśród znajomych.",
            ),
            "travel": (
                "Podróże to moja pasja, zwłaszcza te bez sztywnego planu.",
                "Moja walizka jest zawsze w połowie spakowana na kolejną przygodę.",
            ),
            "music": (
                "Muzyka towarzyszy mi zawsze, od koncertów pod gołym niebem po spokojne "
                "wieczory w domu.",
                "Śpiewam na cały głos pod prysznicem, a na imprezach od razu ciągnie mnie na "
                "parkiet.",
            ),
            "fitness": (
                "Regularnie uprawiam sport, ale nigdy nie odmówię kawałka sernika.",
                "Bieganie w parku pozwala mi oczyścić głowę po długim dniu.",
            ),
            "movies": (
                "Wieczór na kanapie z dobrym filmem to moja mała przyjemność.",
                "Uwielbiam kino, od komedii romantycznych po trzymające w napięciu kryminały.",
            ),
            "reading": (
                "Dużo czytam i potrafię spędzić w księgarni całe popołudnie.",
                "Na mojej szafce nocnej zawsze leży stos książek, które czekają na przeczytanie.",
            ),
            "animals": (
                "Dzięki mojemu psu codziennie spędzam czas na świeżym powietrzu, bez względu na "
                "pogodę.",
                "W domu czeka na mnie kot, który tak naprawdę rządzi całym mieszkaniem.",
            ),
        },
        closers=(
            "Jeśli masz ochotę mnie poznać, napisz!",
            "Szukam kogoś szczerego, z poczuciem humoru i dobrym sercem.",
            "Może wyskoczymy razem na kawę i zobaczymy, czy zaiskrzy?",
            "Bez pośpiechu, zobaczmy, dokąd nas to zaprowadzi.",
            "Odważysz się zrobić pierwszy krok?",
            "Kto wie, może następny spacer będzie we dwoje.",
            "Szczery uśmiech mówi więcej niż tysiąc słów.",
            "Czekam na Twoją wiadomość!",
            "Ciekawość wzięła górę? Napisz, poznajmy się!",
            "Jeśli lubisz dobre rozmowy i spokojne wieczory, powinniśmy się poznać.",
            "Spacer, kawa na mieście albo po prostu herbata, wybór należy do Ciebie!",
            "Do zobaczenia, mam nadzieję!",
        ),
    ),
    "da": AboutMeTexts(
        openers=(
            "Jeg er en glad og åben person, der elsker at grine.",
            "Jeg sætter pris på de små ting: en god snak, en kop kaffe i solen og ærlige "
            "mennesker.",
            "Mine venner siger, at jeg har et stort hjerte og en lidt skæv humor.",
            "Efter en travl dag slapper jeg bedst af i godt selskab.",
            "Ærlighed og respekt betyder alt for mig.",
            "Jeg er nok lidt stille i starten, men når isen er brudt, er jeg fuld af sjov.",
            "Jeg nyder livet og tager ikke mig selv alt for højtideligt.",
            "Ny herinde og spændt på, hvem jeg møder.",
            "Jeg er en ægte livsnyder med en svaghed for god mad og lange snakke.",
            "Spontan, nysgerrig og ligetil: Hos mig får du, hvad du ser.",
            "Jeg tror på, at grin sammen er halvdelen af det hele, også i kærlighed.",
            "Mit liv er godt og fyldt, jeg mangler bare nogen at dele det med.",
        ),
        middles={
            "nature": (
                "I min fritid cykler jeg gerne en tur langs vandet eller går en lang tur i skoven.",
                "Lange gåture langs stranden gør mig glad, også når det blæser.",
            ),
            "cooking": (
                "Jeg elsker at lave mad til vennerne med et godt glas vin ved siden af.",
                "Jeg står gerne i køkkenet, og min lasagne er efterhånden berømt blandt vennerne.",
            ),
            "travel": (
                "At rejse er min store passion, helst uden en fast plan.",
                "Min kuffert er næsten altid halvt pakket til det næste eventyr.",
            ),
            "music": (
                "Musik fylder meget i mit liv, fra festivaler til stille aftener derhjemme.",
                "Jeg synger højt i badet, og til fester er jeg hurtigt ude på dansegulvet.",
            ),
            "fitness": (
                "Jeg træner et par gange om ugen, men siger aldrig nej til et stykke kage.",
                "En løbetur i parken rydder hovedet efter en lang dag.",
            ),
            "movies": (
                "En hyggelig aften i sofaen med en god film er noget af det bedste, jeg ved.",
                "Jeg elsker biografen, fra romantiske komedier til spændende krimier.",
            ),
            "reading": (
                "Jeg læser meget og kan fortabe mig i timevis i en god bog.",
                "På mit natbord ligger der altid en stak bøger, jeg gerne vil læse.",
            ),
            "animals": (
                "Min hund sørger for, at jeg kommer ud hver dag, uanset vejret.",
                "Derhjemme venter min kat, som i virkeligheden bestemmer det hele.",
            ),
        },
        closers=(
            "Har du lyst til at lære mig at kende, så skriv endelig!",
            "Jeg søger en med humor, varme og et godt hjerte.",
            "Skal vi tage en kop kaffe og se, om kemien er der?",
            "Ingen stress, lad os se, hvor det bærer hen.",
            "Tør du tage det første skridt?",
            "Hvem ved, måske bliver næste gåtur for to.",
            "Et ærligt smil siger mere end tusind ord.",
            "Jeg glæder mig til at høre fra dig.",
            "Blevet nysgerrig? Det er jeg også!",
            "Hvis du kan lide gode snakke og hyggelige aftener, bør vi mødes.",
            "En gåtur, en øl på havnen eller bare en kop te, jeg er åben for det meste.",
            "Forhåbentlig på gensyn!",
        ),
    ),
    "fi": AboutMeTexts(
        openers=(
            "Olen iloinen ja avoin ihminen, joka nauraa helposti.",
            "Arvostan pieniä asioita: hyvää keskustelua, aamukahvia ja rehellisiä ihmisiä.",
            "Ystäväni sanovat, että minulla on iso sydän ja vähän erikoinen huumorintaju.",
            "Kiireisen päivän jälkeen rentoudun parhaiten hyvässä seurassa.",
            "Rehellisyys ja kunnioitus ovat minulle tärkeimpiä asioita.",
            "Olen aluksi ehkä vähän hiljainen, mutta kun jää on murtunut, minusta paljastuu "
            "aikamoinen hassuttelija.",
            "Nautin elämästä enkä ota itseäni liian vakavasti.",
            "Uusi täällä ja utelias näkemään, kenet tapaan.",
            "Nautin elämästä täysillä, hyvästä ruoasta ja pitkistä keskusteluista.",
            "Spontaani, utelias ja suora: minusta saat sen, mitä näet.",
            "Uskon, että yhdessä nauraminen on puoli voittoa, myös rakkaudessa.",
            "Elämäni on täynnä hyviä asioita, puuttuu vain joku, jonka kanssa jakaa ne.",
        ),
        middles={
            "nature": (
                "Kesäisin parasta on mökkeily, sauna ja uinti järvessä.",
                "Pitkät kävelyt meren rannalla piristävät aina, tuuli tai ei.",
            ),
            "cooking": (
                "Rakastan kokata ystäville, hyvän viinilasillisen kera.",
                "Viihdyn keittiössä, ja lasagneni on jo kuuluisa ystävieni keskuudessa.",
            ),
            "travel": (
                "Matkustaminen on intohimoni, mieluiten ilman tarkkaa suunnitelmaa.",
                "Matkalaukkuni on melkein aina puoliksi pakattu seuraavaa seikkailua varten.",
            ),
            "music": (
                "Musiikki on iso osa elämääni, festareista rauhallisiin kotiiltoihin.",
                "Laulan suihkussa täysillä, ja juhlissa löydän itseni aina tanssilattialta.",
            ),
            "fitness": (
                "Treenaan muutaman kerran viikossa, mutta pullasta en kieltäydy koskaan.",
                "Lenkki puistossa tyhjentää pään pitkän päivän jälkeen.",
            ),
            "movies": (
                "Leppoisa ilta sohvalla hyvän elokuvan parissa on parasta, mitä tiedän.",
                "Rakastan elokuvateatteria, romanttisista komedioista jännittäviin dekkareihin.",
            ),
            "reading": (
                "Luen paljon ja voin uppoutua hyvään kirjaan tuntikausiksi.",
                "Yöpöydälläni on aina pino kirjoja, jotka odottavat lukemista.",
            ),
            "animals": (
                "Koirani pitää huolen siitä, että ulkoilen joka päivä säällä kuin säällä.",
                "Kotona minua odottaa kissa, joka todellisuudessa päättää kaikesta.",
            ),
        },
        closers=(
            "Jos haluat tutustua, laita rohkeasti viestiä!",
            "Etsin ihmistä, jolla on huumorintajua ja lämmin sydän.",
            "Lähdetäänkö kahville katsomaan, synkkaako meillä?",
            "Ei kiirettä, katsotaan mihin tämä vie.",
            "Uskallatko ottaa ensimmäisen askeleen?",
            "Kuka tietää, ehkä seuraava kävelylenkki tehdään kahdestaan.",
            "Aito hymy kertoo enemmän kuin tuhat sanaa.",
            "Odotan innolla viestiäsi.",
            "Heräsikö uteliaisuus? Minulla ainakin!",
            "Jos pidät hyvistä keskusteluista ja rauhallisista illoista, meidän pitäisi tutustua.",
            "Kävelylenkki, terassi tai ihan vain kupillinen teetä, sinä saat valita!",
            "Toivottavasti kuulemiin pian!",
        ),
    ),
    "nb": AboutMeTexts(
        openers=(
            "Jeg er en glad og åpen person som ler mye.",
            "Jeg setter pris på de små tingene: en god prat, en kopp kaffe i sola og ærlige folk.",
            "Vennene mine sier at jeg har et stort hjerte og litt rar humor.",
            "Etter en travel dag slapper jeg best av i godt selskap.",
            "Ærlighet og respekt betyr mye for meg.",
            "Jeg er kanskje litt stille i starten, men når isen er brutt, er jeg full av tull "
            "og tøys.",
            "Jeg nyter livet og tar ikke meg selv så høytidelig.",
            "Ny her inne og spent på hvem jeg møter.",
            "Jeg er en skikkelig livsnyter med en svakhet for god mat og lange samtaler.",
            "Spontan, nysgjerrig og rett på sak: Hos meg får du det du ser.",
            "Jeg tror felles latter er halve jobben, også i kjærligheten.",
            "Livet mitt er fint og fullt, jeg mangler bare noen å dele det med.",
        ),
        middles={
            "nature": (
                "På fritiden går jeg gjerne på tur i marka eller på fjellet.",
                "Lange turer langs stranda gjør meg glad, også når det blåser.",
            ),
            "cooking": (
                "Jeg elsker å lage mat til venner, gjerne med et godt glass vin.",
                "Jeg står gjerne på kjøkkenet, og lasagnen min er etter hvert berømt blant venner.",
            ),
            "travel": (
                "Å reise er min store lidenskap, helst uten en fast plan.",
                "Kofferten min er nesten alltid halvpakket til neste eventyr.",
            ),
            "music": (
                "Musikk betyr mye for meg, fra festivaler til rolige kvelder hjemme.",
                "Jeg synger høyt i dusjen, og på fest finner du meg fort på dansegulvet.",
            ),
            "fitness": (
                "Jeg trener et par ganger i uka, men sier aldri nei til en vaffel.",
                "En løpetur i parken rydder hodet etter en lang dag.",
            ),
            "movies": (
                "En koselig kveld i sofaen med en god film er noe av det beste jeg vet.",
                "Jeg elsker kino, fra romantiske komedier til spennende krim.",
            ),
            "reading": (
                "Jeg leser mye og kan forsvinne i en god bok i timevis.",
                "På nattbordet mitt ligger det alltid en bunke bøker jeg vil lese.",
            ),
            "animals": (
                "Hunden min sørger for at jeg kommer meg ut hver dag, uansett vær.",
                "Hjemme venter katten min, som egentlig er sjefen i huset.",
            ),
        },
        closers=(
            "Har du lyst til å bli kjent, så send meg gjerne en melding!",
            "Jeg ser etter en med humor, varme og et godt hjerte.",
            "Skal vi ta en kaffe og se om kjemien stemmer?",
            "Ingen stress, vi får se hvor det bærer.",
            "Tør du ta det første skrittet?",
            "Hvem vet, kanskje neste fjelltur blir for to.",
            "Et ærlig smil sier mer enn tusen ord.",
            "Gleder meg til å høre fra deg.",
            "Blitt nysgjerrig? Det er jeg også!",
            "Liker du gode samtaler og koselige kvelder, bør vi møtes.",
            "En tur, en kaffe på brygga eller bare en kopp te, jeg er åpen for det meste.",
            "Håper vi snakkes snart!",
        ),
    ),
    "sv": AboutMeTexts(
        openers=(
            "Jag är en glad och öppen person som gärna skrattar.",
            "Jag uppskattar de små sakerna: ett bra samtal, en kopp kaffe i solen och ärliga "
            "människor.",
            "Mina vänner säger att jag har ett stort hjärta och lite knasig humor.",
            "Efter en stressig dag kopplar jag bäst av i trevligt sällskap.",
            "Ärlighet och respekt är det viktigaste för mig.",
            "Jag är kanske lite blyg i början, men när isen väl är bruten bjuder jag på mig själv.",
            "Jag njuter av livet och tar inte mig själv på för stort allvar.",
            "Ny här och nyfiken på vem jag kommer att träffa.",
            "Jag är en riktig livsnjutare med en svaghet för god mat och långa samtal.",
            "Spontan, nyfiken och rak: Med mig får du det du ser.",
            "Jag tror att skratta tillsammans är halva grejen, även i kärlek.",
            "Mitt liv är fint och fullt, jag saknar bara någon att dela det med.",
        ),
        middles={
            "nature": (
                "På sommaren är det stugan, skärgården och långa ljusa kvällar som gäller.",
                "Långa promenader längs stranden gör mig glad, även när det blåser.",
            ),
            "cooking": (
                "Jag älskar att laga mat till vänner, gärna med ett gott glas vin.",
                "Jag står gärna i köket, och min lasagne har blivit berömd bland vännerna.",
            ),
            "travel": (
                "Att resa är min stora passion, helst utan något fast schema.",
                "Min resväska är nästan alltid halvpackad inför nästa äventyr.",
            ),
            "music": (
                "Musik betyder mycket för mig, från festivaler till lugna kvällar hemma.",
                "Jag sjunger högt i duschen, och på fester hittar du mig snabbt på dansgolvet.",
            ),
            "fitness": (
                "Jag tränar några gånger i veckan, men säger aldrig nej till en fika.",
                "En löprunda i parken rensar huvudet efter en lång dag.",
            ),
            "movies": (
                "En mysig kväll i soffan med en bra film är det bästa jag vet.",
                "Jag älskar bio, från romantiska komedier till spännande deckare.",
            ),
            "reading": (
                "Jag läser mycket och kan försvinna i en bra bok i timmar.",
                "På mitt nattduksbord ligger det alltid en hög böcker jag vill läsa.",
            ),
            "animals": (
                "Min hund ser till att jag kommer ut varje dag, oavsett väder.",
                "Hemma väntar min katt, som egentligen bestämmer allt.",
            ),
        },
        closers=(
            "Vill du lära känna mig, så skriv gärna!",
            "Jag söker någon med humor, värme och ett gott hjärta.",
            "Ska vi ta en fika och se om det klickar?",
            "Ingen stress, vi får se vart det leder.",
            "Vågar du ta första steget?",
            "Vem vet, kanske blir nästa promenad för två.",
            "Ett ärligt leende säger mer än tusen ord.",
            "Ser fram emot att höra från dig.",
            "Blev du nyfiken? Det blev jag också!",
            "Gillar du bra samtal och mysiga kvällar borde vi ses.",
            "En promenad, ett glas vin eller bara en kopp te, jag är öppen för det mesta.",
            "Hoppas vi hörs snart!",
        ),
    ),
    "en": AboutMeTexts(
        openers=(
            "Easy-going, warm and always up for a laugh.",
            "I love the simple things: good conversation, a proper cup of coffee and people who "
            "are genuine.",
            "My friends would say I'm loyal, a bit cheeky and a great listener.",
            "After a busy week I like nothing more than unwinding in good company.",
            "Honesty and kindness matter more to me than anything.",
            "I'm a little shy at first, but once I'm comfortable I'm the one cracking the jokes.",
            "I try to make the most of every day and don't take myself too seriously.",
            "New here and curious to see who I'll meet.",
            "A proper foodie who loves long conversations over a good meal.",
            "Spontaneous, curious and straightforward: what you see is what you get.",
            "I think laughing together is half the battle, in love too.",
            "My life is full and happy, I'm just missing someone to share it with.",
        ),
        middles={
            "nature": (
                "Weekends usually mean a long walk somewhere green and a brunch that turns into "
                "lunch.",
                "Long walks on the beach make me happy, even when it's windy.",
            ),
            "cooking": (
                "Cooking for friends with a nice glass of wine is my idea of a perfect evening.",
                "I love pottering about in the kitchen and my lasagne is famous among my friends.",
            ),
            "travel": (
                "Travel is my big passion, ideally without too much of a plan.",
                "My suitcase is always half packed for the next adventure.",
            ),
            "music": (
                "Music is a big part of my life, from festivals to quiet nights in with a record.",
                "I sing loudly in the shower and I'm always first on the dance floor at parties.",
            ),
            "fitness": (
                "I work out a few times a week, but I'll never say no to dessert.",
                "A run in the park clears my head after a long day.",
            ),
            "movies": (
                "A cosy night on the sofa with a good film is hard to beat.",
                "I love the cinema, from romantic comedies to gripping thrillers.",
            ),
            "reading": (
                "I read a lot and can lose whole afternoons in a bookshop.",
                "There's always a stack of books on my bedside table waiting to be read.",
            ),
            "animals": (
                "My dog makes sure I get outside every day, rain or shine.",
                "My cat is always waiting for me at home, and she's definitely the one in charge.",
            ),
        },
        closers=(
            "If you'd like to get to know me, just drop me a message!",
            "Looking for someone with a good sense of humour and a kind heart.",
            "Fancy grabbing a coffee and seeing if we click?",
            "No rush, let's just see where it goes.",
            "Brave enough to make the first move?",
            "Who knows, maybe my next walk will be for two.",
            "A genuine smile says more than a thousand words.",
            "Looking forward to hearing from you.",
            "Curious? So am I!",
            "If you like good conversation and cosy evenings, we should talk.",
            "A walk, a drink or just a cup of tea, I'm open to most things.",
            "Hope to hear from you soon!",
        ),
    ),
}


def _middle(rng: random.Random, texts: AboutMeTexts, interests: Sequence[str]) -> str:
    """A sentence about one of the interests, or any interest when none has one."""
    topics = [_RELATED_INTEREST.get(i, i) for i in interests]
    matching = [t for t in topics if t in texts.middles] or list(texts.middles)
    return rng.choice(texts.middles[rng.choice(matching)])


def compose_about_me(rng: random.Random, language: str, interests: Sequence[str]) -> str:
    """One to three sentences: an opener, maybe a line on an interest, maybe a closer."""
    texts = ABOUT_ME[language]
    sentences = [rng.choice(texts.openers)]
    shape = rng.random()
    if shape < 0.9:
        sentences.append(_middle(rng, texts, interests))
    if shape > 0.1:
        sentences.append(rng.choice(texts.closers))
    return " ".join(sentences)
