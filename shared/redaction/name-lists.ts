/**
 * Given names and surnames common in the United States (English and Spanish speakers), for
 * speech output, which writes names in lower case: wink's model tags a lower-case "john" a noun,
 * not a proper noun, so without these lists a name said in a transcript would pass unseen.
 */

const list = (text: string) => new Set(text.trim().split(/\s+/));

export const GIVEN_NAMES = list(`
  aaron abigail adam adrian aidan alan albert alex alexander alexandra alexis alice alicia allison amanda amelia amy ana andrea andrew
  angela anna anne anthony antonio arthur ashley austin barbara benjamin beth betty beverly brandon brenda brian brittany bruce bryan
  caleb cameron carl carlos carmen carol caroline catherine charles charlotte chloe chris christian christina christine christopher cindy
  claire cody connor craig cynthia daniel danielle david deborah debra denise dennis derek diana diane diego donald donna dorothy douglas
  dylan edward eleanor elena elijah elizabeth ella ellen emily emma eric erica erin ethan eugene eva evan evelyn fernando francisco gabriel
  gary george gerald gloria gregory hannah harold harry heather helen henry howard isaac isabel isabella jacob james jamie jane janet
  janice jason javier jeffrey jennifer jeremy jerry jesse jessica joan joe joel john jonathan jordan jorge jose joseph joshua joyce juan
  judith judy julia julie justin karen katherine kathleen kathryn kayla keith kelly kenneth kevin kimberly kyle larry laura lauren
  lawrence leah leonardo liam lily linda lisa logan lori lucas lucia luis luke madison manuel marco margaret maria marie marilyn
  martha martin mary mason matthew megan melissa michael michelle miguel mike natalie nathan nicholas nicole noah olivia oscar pablo
  pamela patricia patrick paul peter philip rachel ralph randy raymond rebecca richard rick robert roberto roger ronald roy russell ruth
  ryan samantha samuel sandra sara sarah scott sean sergio sharon shirley sofia sophia stephanie stephen steven susan teresa terry
  theresa thomas timothy tyler valerie vanessa victor victoria vincent virginia walter wayne william zachary
  mia noah emma olivia ava isabella sophia charlotte amelia harper evelyn abby adriana alejandro alberto beatriz camila carla cristina
  daniela eduardo elisa emilio enrique esteban fabiola felipe gabriela guadalupe guillermo hector ignacio ines jaime jimena joaquin
  julio leticia lorena luisa marcela mariana mario marta mateo mercedes monica nicolas patricio paula pedro raquel raul ricardo rocio
  rodrigo rosa santiago silvia sonia valentina veronica ximena yolanda
  tom tim ben dan dave steve jim bob jeff greg ken tony nick matt josh jake sam kate katie liz beth jen jenny becky meg annie
  ahmed ali fatima omar priya raj wei li chen mohammed muhammad hiroshi yuki anil sanjay kenji mei aisha
`);

/** Given names that are also everyday words: taken only when written capitalised or after "my name is" and the like. */
export const AMBIGUOUS_NAMES = list(`
  will may june april august mark bill rose grace hope joy faith frank art sue pat don ray jack dawn summer autumn amber ruby jade
  page chase hunter drew rob max sky river lee ali li chen rick jean penny holly ivy iris daisy violet skip buck guy sonny miles
  victoria virginia jordan austin paris georgia carol bob wayne dean chris angel sol luz paz dolores mercedes rosa
`);

export const SURNAMES = list(`
  smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson thomas taylor
  moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young allen king wright scott
  torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter roberts gomez phillips evans turner diaz
  parker cruz edwards collins reyes stewart morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson bailey reed kelly
  howard ramos kim cox ward richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price alvarez castillo sanders
  patel myers long ross foster jimenez powell jenkins perry russell sullivan bell coleman butler henderson barnes gonzales fisher
  vasquez simmons romero jordan patterson alexander hamilton graham reynolds griffin wallace moreno west cole hayes bryant herrera
  gibson ellis tran medina aguilar stevens murray ford castro marshall owens harrison fernandez mcdonald woods washington kennedy wells
  vargas henry chen freeman webb tucker guzman burns crawford olson simpson porter hunter gordon mendez silva shaw snyder mason dixon
  munoz hunt hicks holmes palmer wagner black robertson boyd rose stone salazar fox warren mills meyer rice schmidt garza daniels
  ferguson nichols stephens soto weaver ryan gardner payne grant dunn kelley spencer hawkins arnold pierce vazquez hansen peters santos
  hart bradley knight elliott cunningham duncan armstrong hudson carroll lane riley andrews alvarado ray delgado berry perkins hoffman
  johnston matthews pena richards contreras willis carpenter lawrence sandoval guerrero george chapman rios estrada ortega watkins
  greene nunez wheeler valdez harper burke larson santiago maldonado morrison franklin carlson austin dominguez carr lawson jacobs
  obrien lynch singh vega bishop montgomery oliver jensen harvey williamson gilbert dean sims espinoza howell li wong reid hanson le
  mccoy garrett burton fuller wang weber welch rojas lucas marquez fields park yang little banks padilla day walsh bowman schultz
  luna fowler mejia davidson acosta brewer may holland juarez newman pearson curtis cortez douglas schneider joseph barrett navarro
  figueroa keller avila wade molina stanley hopkins campos barnett bates chambers caldwell beck lambert miranda byrd craig ayala lowe
  frazier powers neal leonard gregory carrillo sutton fleming rhodes shelton schwartz norris jennings watts duran walters cohen
  mcdaniel moran parks steele vaughn becker holt deleon barker terry hale leon hail benson haynes horton miles lyons pham graves bush
  thornton wolfe warner cabrera mckinney mann zimmerman dawson lara fletcher page mccarthy love robles cervantes solis erickson reeves
  chang klein salinas fuentes baldwin daniel simon velasquez hardy higgins aguirre lin cummings chandler sharp barber bowen ochoa
  dennis robbins liu ramsey francis griffith paul blair oconnor cardenas pacheco cross calderon quinn moss swanson chan rivas khan
  rodgers serrano fitzgerald rosales stevenson christensen manning gill curry mclaughlin harmon mcgee gross doyle garner newton burgess
  reese walton blake trujillo adkins brady goodman roman webster goodwin fischer huang potter delacruz montoya todd wu hines mullins
  castaneda malone cannon tate mack sherman hubbard hodges zhang guerra wolf valencia saunders franco rowe gallagher farmer hammond
  hampton townsend ingram wise gallegos clarke barton schroeder maxwell waters logan camacho strickland norman person colon parsons
  frank harrington glover osborne buchanan casey floyd patton ibarra ball tyler suarez bowers orozco salas cobb gibbs andrade bauer
  conner moody escobar mcguire lloyd mueller hartman french kramer mcbride pope lindsey velazquez norton mccormick sparks flynn yates
  hogan marsh macias villanueva zamora pratt stokes owen ballard lang brock villarreal charles drake barrera cain patrick pineda
  burnett mercado santana shepherd bautista ali shaffer lamb trevino mckenzie hess beil olsen cochran morton nash wilkins petersen
  briggs shah roth nicholson holloway lozano rangel flowers hoover short arias mora valenzuela bryan meyers weiss underwood bass
  greer summers houston carson morrow clayton whitaker decker yoder collier zuniga carey wilcox melendez poole roberson larsen conley
  davenport copeland massey lam huff rocha cameron jefferson hood monroe anthony pittman huynh randall singleton kirk combs mathis
  christian skinner bradford richard galvan wall boone kirby wilkinson bridges bruce atkinson velez meza roy vincent york hodge villa
  abbott allison tapia gates chase sosa sweeney farrell wyatt dalton horn barron phelps yu dickerson heath foley atkins mathews bonilla
  acevedo benitez zavala hensley glenn cisneros harrell shields rubio choi huffman boyer garrison arroyo bond kane hancock callahan
  dillon cline wiggins grimes arellano melton oneill savage ho beltran pitts parrish ponce rich booth koch golden ware brennan mcdowell
  marks cantu humphrey baxter sawyer clay tanner hutchinson kaur berg wiley gilmore russo villegas hobbs keith wilkerson ahmed beard
  mcclain montes mata rosario vang walter henson oneal mosley mcclure beasley stephenson snow huerta preston vance barry johns eaton
  blackwell dyer prince macdonald solomon guevara stafford english hurst woodard cortes shannon kemp nolan mccullough merritt murillo
  moon salgado strong kline cordova barajas roach rosas winters jacobson lester knox bullock kerr leach meadows orr davila whitehead
  pruitt kent conway mckee barr david dejesus marin berger mcintyre blankenship gaines palacios cuevas bartlett durham dorsey mccall
  odonnell stein browning stout lowery sloan mclean hendricks calhoun sexton chung gentry hull duarte ellison nielsen gillespie buck
  middleton sellers leblanc esparza hardin bradshaw mcintosh howe livingston frost glass morse knapp herman stark bravo noble spears
  weeks corona frederick buckley mcfarland hebert enriquez hickman quintero randolph schaefer walls trejo house reilly pennington
  michael conrad giles benjamin crosby fitzpatrick donovan mays mahoney valentine raymond medrano hahn mcmillan small bentley felix
  peck lucero boyle hanna pace rush hurley harding mcconnell bernal nava ayers everett ventura avery pugh mayer bender shepard mcmahon
  landry case sampson moses magana blackburn dunlap gould duffy vaughan herring mckay espinosa rivers farley bernard ashley friedman
  potts truong costa correa blevins nixon clements fry delarosa best benton lugo portillo dougherty crane haley phan villalobos
  blanchard horne finley quintana lynn esquivel bean dodson mullen xiong hayden cano levy huber richmond moyer lim frye sheppard
  mccarty avalos booker waller parra woodward jaramillo krueger rasmussen brandt peralta donaldson stuart faulkner maynard galindo
  coffey estes sanford burch maddox vo oconnell vu andersen spence mcpherson church schmitt stanton leal cherry compton dudley
  sierra pollard alfaro hester proctor lu hinton novak good madden mccann terrell jarvis dickson reyna cantrell mayo branch hendrix
  rollins rowland whitney duke odom daugherty travis tang archer kowalski nowak ivanov petrov muller rossi ferrari silva santos
`);

/** Words said just before a name. Strong: a name surely follows ("my name is", "mister"); weak: one may ("this is", "talk to"). */
export const STRONG_CUES = [
  'my name is',
  'name is',
  "name's",
  'call me',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mister',
  'missus',
  'dr',
  'doctor',
  'professor',
  'last name is',
  'first name is',
  'surname is',
];
export const WEAK_CUES = [
  'this is',
  "i'm",
  'im',
  'i am',
  "it's",
  'hi',
  'hello',
  'hey',
  'dear',
  'thanks',
  'thank you',
  'talk to',
  'talking to',
  'speak to',
  'speaking with',
  'spoke with',
  'spoke to',
  'ask for',
];
